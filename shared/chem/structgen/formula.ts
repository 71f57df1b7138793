/**
 * Molecular formulas for the structure generator: parsing, the element table (standard lowest
 * valences, as surge uses without its Nx/Sx/Sy/Px switches) and the derived bond budget.
 */
import { AppError } from '../../errors.ts';

/**
 * Valences as surge's defaults: C 4, N 3, O 2, S 2, P 3, B 3, halogens 1. Higher valences
 * (N 5, S 4/6, P 5) are not generated: sulfoxides, sulfones, phosphates and nitro groups with
 * a pentavalent N are outside what this generator enumerates.
 */
export const VALENCE: Record<string, number> = { C: 4, N: 3, O: 2, S: 2, P: 3, B: 3, F: 1, Cl: 1, Br: 1, I: 1 };

export interface Formula {
  /** Heavy elements sorted by decreasing valence, then symbol. */
  elements: { symbol: string; valence: number; count: number }[];
  hydrogens: number;
  heavyAtoms: number;
  /** Total bond order between heavy atoms: (sum of valences - H) / 2, or -1 if that is impossible. */
  bondOrderSum: number;
  /** Hill-order formula, e.g. C7H7NO. */
  text: string;
}

export function parseFormula(input: string): Formula {
  const raw = String(input ?? '').trim();
  if (raw === '') throw new AppError(422, 'Molecular formula is empty', 'invalid_input');
  if (!/^(?:[A-Z][a-z]?\d*)+$/.test(raw)) {
    throw new AppError(422, `Invalid molecular formula '${raw}': expected element symbols with counts, e.g. C6H6 or C4H10O`, 'invalid_input');
  }
  const counts = new Map<string, number>();
  for (const [, symbol, digits] of raw.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
    if (symbol !== 'H' && !(symbol in VALENCE)) {
      throw new AppError(422, `Invalid molecular formula '${raw}': unsupported element '${symbol}' (supported: ${['H', ...Object.keys(VALENCE)].join(', ')})`, 'invalid_input');
    }
    const n = digits === '' ? 1 : Number(digits);
    if (n > 1000) throw new AppError(422, `Invalid molecular formula '${raw}': count ${n} for ${symbol} is too large`, 'invalid_input');
    counts.set(symbol, (counts.get(symbol) ?? 0) + n);
  }
  const hydrogens = counts.get('H') ?? 0;
  counts.delete('H');
  const elements = [...counts].filter(([, c]) => c > 0)
    .map(([symbol, count]) => ({ symbol, count, valence: VALENCE[symbol] }))
    .sort((a, b) => b.valence - a.valence || a.symbol.localeCompare(b.symbol));
  const heavyAtoms = elements.reduce((s, e) => s + e.count, 0);
  if (heavyAtoms === 0) throw new AppError(422, `Invalid molecular formula '${raw}': no heavy atoms`, 'invalid_input');
  const valenceSum = elements.reduce((s, e) => s + e.count * e.valence, 0);
  const twice = valenceSum - hydrogens;
  const bondOrderSum = twice >= 0 && twice % 2 === 0 ? twice / 2 : -1;
  const hill = (e: { symbol: string; count: number }) => e.symbol + (e.count > 1 ? e.count : '');
  const carbon = elements.find((e) => e.symbol === 'C');
  const rest = elements.filter((e) => e.symbol !== 'C').sort((a, b) => a.symbol.localeCompare(b.symbol));
  const text = carbon
    ? hill(carbon) + (hydrogens ? hill({ symbol: 'H', count: hydrogens }) : '') + rest.map(hill).join('')
    : [...rest, ...(hydrogens ? [{ symbol: 'H', count: hydrogens }] : [])].sort((a, b) => a.symbol.localeCompare(b.symbol)).map(hill).join('');
  return { elements, hydrogens, heavyAtoms, bondOrderSum, text };
}
