/**
 * Molecular formulas in queries: recognised (type detection) and written the way the catalog
 * stores them (RDKit's CalcMolFormula order, shared/chem/core/formula.ts: C, then H, then the
 * other elements alphabetically, the net charge last), so `H12C6O6` finds `C6H12O6`.
 */
import { elementSymbol, hillFormula } from '../../../../shared/chem/core/formula.ts';

const ELEMENTS = new Set(Array.from({ length: 118 }, (_, i) => elementSymbol(i + 1)));
const TOKEN = /([A-Z][a-z]?)(\d*)/g;
/** Element symbols with counts, then an optional charge (`+`, `-`, `+2`, `2-`, `-2`). */
const SHAPE = /^((?:[A-Z][a-z]?\d*)+)\s*([+-]\d*|\d+[+-])?$/;

/** Element counts of a plain formula, or null when it is not one (a symbol that is no element). */
function counts(body: string): Map<string, number> | null {
  const out = new Map<string, number>();
  for (const [, el, n] of body.matchAll(TOKEN)) {
    if (!ELEMENTS.has(el)) return null;
    out.set(el, (out.get(el) ?? 0) + (n === '' ? 1 : Number(n)));
  }
  return out;
}

/**
 * Whether a query is a molecular formula in COCONUT's sense (element symbols and counts only,
 * none of SMILES's characters), made stricter: every symbol must be an element and appear once,
 * so words such as `Hi` or SMILES such as `CCO` are not formulas.
 */
export function isFormula(q: string): boolean {
  if (!/^([A-Z][a-z]?\d*)+$/.test(q)) return false;
  const seen = new Set<string>();
  for (const [, el] of q.matchAll(TOKEN)) {
    if (!ELEMENTS.has(el) || seen.has(el)) return false;
    seen.add(el);
  }
  return true;
}

/** The catalog's spelling of a formula (order, charge); the text unchanged when it is no plain formula. */
export function normalizeFormula(q: string): string {
  const m = SHAPE.exec(q.trim());
  if (!m) return q;
  const c = counts(m[1]);
  if (!c) return q;
  const charge = m[2];
  const size = charge ? Number(charge.replace(/[+-]/g, '') || '1') : 0;
  return hillFormula(c, charge?.includes('-') ? -size : size);
}
