/**
 * The detailed form of the molecule filters (/chem/all_filters_detailed of the original service,
 * CM 3.11): per filter whether the molecule passes, the property values it was judged on and the
 * violations as sentences, in the original's shape and wording. Thresholds and property
 * definitions are those of filters.ts (RDKit's definitions); numbers inside sentences are written
 * as Python writes them (`{x:.1f}`, `str(float)`), values rounded as Python's round().
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { morganGraph } from '../core/morgan-env.ts';
import { pyRound } from '../core/format.ts';
import { hasMatch, matches, query, requireQuery } from '../core/smarts.ts';
import { HBA_SMARTS } from '../descriptors/rdkit-props.ts';
import { qed } from '../scores/qed.ts';
import { saScore } from '../scores/sascore.ts';
import { npLikeness } from '../scores/nplikeness.ts';
import type { PainsEntry } from './pains.ts';
import type { FilterOptions, FilterTables, Properties, Range } from './filters.ts';

/** Python's `f"{x:.nf}"`: the exact value rounded half-even, "-0.0" kept. */
export function pyFixed(x: number, digits: number): string {
  const s = pyRound(x, digits).toFixed(digits);
  return x < 0 && !s.startsWith('-') ? `-${s}` : s;
}

/** Python's `str(float)` (repr): "5.0", "0.25", "1e-05", "1e+16". */
export function pyFloat(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  return String(x).replace(/e([+-])(\d)$/, 'e$10$2');
}

export interface PainsDetail {
  contains_pains: boolean;
  family: string | null;
  description: string | null;
  passes: boolean;
  details: string;
}

export interface RuleDetail {
  passes: boolean;
  violations: string[];
  properties: Record<string, number>;
  details: string;
}

export interface LipinskiDetail {
  violations: number;
  details: string[];
  properties: Record<string, number>;
  passes: boolean;
}

export interface ScoreDetail {
  passes: boolean;
  value: number;
  range: string;
  details: string;
}

export interface MoleculeFilters {
  pains?: PainsDetail;
  lipinski?: LipinskiDetail;
  veber?: RuleDetail;
  reos?: RuleDetail;
  ghose?: RuleDetail;
  rule_of_three?: RuleDetail;
  qed?: ScoreDetail;
  sa_score?: ScoreDetail;
  np_likeness?: ScoreDetail;
}

/**
 * wehi_pains.csv lists family C (its first 409 rows), then B (55), then A (16); RDKit's
 * FilterCatalog holds A, B, C in that order, each in the file's order, and reports its first match.
 */
const FAMILY_B_START = 409;
const FAMILY_A_START = 464;

function catalogOrder(entries: PainsEntry[]): { entry: PainsEntry; family: string }[] {
  const tagged = entries.map((entry, i) => ({ entry, family: i >= FAMILY_A_START ? 'A' : i >= FAMILY_B_START ? 'B' : 'C' }));
  return [...tagged.filter((e) => e.family === 'A'), ...tagged.filter((e) => e.family === 'B'), ...tagged.filter((e) => e.family === 'C')];
}

/** Python's str.capitalize(): first character upper case, the rest lower case. */
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

export function painsDetail(rdkit: RDKit, mol: Mol, entries: PainsEntry[]): PainsDetail {
  const withH = rdkit.get_mol(mol.add_hs(), JSON.stringify({ removeHs: false }));
  try {
    if (!withH || !withH.is_valid()) throw new Error('could not add hydrogens');
    for (const { entry, family } of catalogOrder(entries)) {
      const q = query(rdkit, entry.smarts);
      if (!q || !hasMatch(withH, q)) continue;
      const scope = `PAINS filters (family ${family})`;
      const description = capitalize(entry.name);
      return { contains_pains: true, family: scope, description, passes: false, details: `PAINS match found: ${scope} - ${description}` };
    }
    return { contains_pains: false, family: null, description: null, passes: true, details: 'No PAINS substructures detected' };
  } finally {
    withH?.delete();
  }
}

const rule = (violations: string[], properties: Record<string, number>): RuleDetail => ({
  passes: violations.length === 0,
  violations,
  properties,
  details: violations.length === 0 ? 'No violations' : violations.join('; '),
});

const outside = (x: number, lo: number, hi: number) => !(lo <= x && x <= hi);

function score(name: string, value: number, shown: string, r: Range): ScoreDetail {
  const passes = r[0] <= value && value <= r[1];
  const range = `${pyFloat(r[0])}-${pyFloat(r[1])}`;
  return { passes, value, range, details: `${name} = ${shown} (${passes ? 'within' : 'outside'} range ${range})` };
}

/** The enabled filters' details, keyed and ordered as the original answers them. */
export function detailedFilters(rdkit: RDKit, mol: Mol, opts: FilterOptions, tables: FilterTables): MoleculeFilters {
  const d = JSON.parse(mol.get_descriptors()) as Properties;
  const hba = matches(mol, requireQuery(rdkit, HBA_SMARTS)).length;
  const { NumHBD: hbd, CrippenClogP: logp, exactmw: mw, NumRotatableBonds: rotb, tpsa } = d;
  const graph = morganGraph(rdkit, mol);
  const charge = graph.atoms.reduce((s, a) => s + a.charge, 0);
  const out: MoleculeFilters = {};
  if (opts.pains) out.pains = painsDetail(rdkit, mol, tables.pains);
  if (opts.lipinski) {
    const v: string[] = [];
    if (logp > 5) v.push(`LogP = ${pyFixed(logp, 2)} (> 5)`);
    if (d.amw > 500) v.push(`MW = ${pyFixed(d.amw, 1)} Da (> 500)`);
    if (hba > 10) v.push(`HBA = ${hba} (> 10)`);
    if (hbd > 5) v.push(`HBD = ${hbd} (> 5)`);
    out.lipinski = {
      violations: v.length,
      details: v,
      properties: { molecular_weight: pyRound(d.amw, 2), logp: pyRound(logp, 2), hb_acceptors: hba, hb_donors: hbd },
      passes: v.length === 0,
    };
  }
  if (opts.veber) {
    const v: string[] = [];
    if (rotb > 10) v.push(`Rotatable bonds = ${rotb} (> 10)`);
    if (tpsa > 140) v.push(`TPSA = ${pyFixed(tpsa, 1)} (> 140)`);
    out.veber = rule(v, { rotatable_bonds: rotb, tpsa: pyRound(tpsa, 1) });
  }
  if (opts.reos) {
    const v: string[] = [];
    if (outside(mw, 200, 500)) v.push(`MW = ${pyFixed(mw, 1)} (not in 200-500)`);
    if (outside(logp, -5, 5)) v.push(`LogP = ${pyFixed(logp, 2)} (not in -5 to 5)`);
    if (outside(hbd, 0, 5)) v.push(`HBD = ${hbd} (not in 0-5)`);
    if (outside(hba, 0, 10)) v.push(`HBA = ${hba} (not in 0-10)`);
    if (outside(charge, -2, 2)) v.push(`Charge = ${charge} (not in -2 to 2)`);
    if (outside(rotb, 0, 8)) v.push(`RotBonds = ${rotb} (not in 0-8)`);
    if (outside(d.NumHeavyAtoms, 15, 50)) v.push(`HeavyAtoms = ${d.NumHeavyAtoms} (not in 15-50)`);
    out.reos = rule(v, {
      molecular_weight: pyRound(mw, 1), logp: pyRound(logp, 2), hb_donors: hbd, hb_acceptors: hba,
      formal_charge: charge, rotatable_bonds: rotb, heavy_atoms: d.NumHeavyAtoms,
    });
  }
  if (opts.ghose) {
    const v: string[] = [];
    if (outside(mw, 160, 480)) v.push(`MW = ${pyFixed(mw, 1)} (not in 160-480)`);
    if (outside(logp, 0.4, 5.6)) v.push(`LogP = ${pyFixed(logp, 2)} (not in 0.4-5.6)`);
    if (outside(d.NumAtoms, 20, 70)) v.push(`Atoms = ${d.NumAtoms} (not in 20-70)`);
    if (outside(d.CrippenMR, 40, 130)) v.push(`MR = ${pyFixed(d.CrippenMR, 1)} (not in 40-130)`);
    out.ghose = rule(v, {
      molecular_weight: pyRound(mw, 1), logp: pyRound(logp, 2), atom_count: d.NumAtoms, molar_refractivity: pyRound(d.CrippenMR, 1),
    });
  }
  if (opts.ruleofthree) {
    const v: string[] = [];
    if (mw > 300) v.push(`MW = ${pyFixed(mw, 1)} (> 300)`);
    if (logp > 3) v.push(`LogP = ${pyFixed(logp, 2)} (> 3)`);
    if (hbd > 3) v.push(`HBD = ${hbd} (> 3)`);
    if (hba > 3) v.push(`HBA = ${hba} (> 3)`);
    if (rotb > 3) v.push(`RotBonds = ${rotb} (> 3)`);
    out.rule_of_three = rule(v, { molecular_weight: pyRound(mw, 1), logp: pyRound(logp, 2), hb_donors: hbd, hb_acceptors: hba, rotatable_bonds: rotb });
  }
  if (opts.qed) {
    // Judged on the exact QED, reported with 3 decimals.
    const q = qed(rdkit, mol, graph, d, tables.qed);
    out.qed = { ...score('QED', q, pyFixed(q, 3), opts.qed), value: pyRound(q, 3) };
  }
  if (opts.sa) {
    // The original rounds the SA score to 2 decimals first and writes it with str().
    const sa = pyRound(saScore(rdkit, mol, tables.sa), 2);
    out.sa_score = score('SA Score', sa, pyFloat(sa), opts.sa);
  }
  if (opts.np) {
    // The NP-likeness is its "%.2f" string upstream: judged and reported as that number.
    const np = pyRound(npLikeness(rdkit, mol, tables.np, graph).score, 2);
    out.np_likeness = score('NP-likeness', np, pyFixed(np, 2), opts.np);
  }
  return out;
}
