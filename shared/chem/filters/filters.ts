/**
 * The molecule filters of /chem/all_filters, evaluated in the service's fixed order:
 * PAINS, Lipinski, Veber, REOS, Ghose, rule of three, QED range, SA-score range,
 * NP-likeness range. Every flag means "passes this filter" (T), so AND keeps molecules that
 * pass all enabled filters and OR those that pass at least one. The rule-based filters
 * use RDKit descriptor definitions (MinimalLib) and the published thresholds:
 * Lipinski et al., Adv. Drug Deliv. Rev. 23, 3-25 (1997); Veber et al., J. Med. Chem. 45,
 * 2615-2623 (2002); REOS, Walters & Murcko, Adv. Drug Deliv. Rev. 54, 255-271 (2002);
 * Ghose et al., J. Comb. Chem. 1, 55-68 (1999); rule of three, Congreve et al., Drug
 * Discov. Today 8, 876-877 (2003).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import type { FragmentTable } from '../core/morgan-env.ts';
import { morganGraph } from '../core/morgan-env.ts';
import { painsMatches, type PainsEntry } from './pains.ts';
import { qed, type QedData } from '../scores/qed.ts';
import { saScore } from '../scores/sascore.ts';
import { npLikeness } from '../scores/nplikeness.ts';
import { HBA_SMARTS } from '../descriptors/rdkit-props.ts';
import { matches, requireQuery } from '../core/smarts.ts';
import { pyRound } from '../core/format.ts';

export type Range = [number, number];

export interface FilterOptions {
  pains: boolean;
  lipinski: boolean;
  veber: boolean;
  reos: boolean;
  ghose: boolean;
  ruleofthree: boolean;
  qed?: Range;
  sa?: Range;
  np?: Range;
}

export interface FilterTables {
  pains: PainsEntry[];
  qed: QedData;
  np: FragmentTable;
  sa: FragmentTable;
}

/**
 * "a-b" with optional signs on both bounds ("-5-5", "-3--1", "0.2-0.8"). The original split
 * on every "-", so negative bounds silently switched the filter off; here they parse.
 */
export function parseRange(text: string): Range | undefined {
  const m = /^\s*([-+]?\d+(?:\.\d*)?|[-+]?\.\d+)\s*-\s*([-+]?\d+(?:\.\d*)?|[-+]?\.\d+)\s*$/.exec(text);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2])];
}

/** The part of RDKit's `get_descriptors()` answer the filters read. */
export interface Properties {
  exactmw: number;
  amw: number;
  CrippenClogP: number;
  CrippenMR: number;
  NumHBD: number;
  NumRotatableBonds: number;
  tpsa: number;
  NumHeavyAtoms: number;
  NumAtoms: number;
}

const within = (x: number, [a, b]: Range) => a <= x && x <= b;

/** The flags of the enabled filters, in the service's order; true = passes. */
export function filterFlags(rdkit: RDKit, mol: Mol, opts: FilterOptions, tables: FilterTables): boolean[] {
  const d = JSON.parse(mol.get_descriptors()) as Properties;
  const hba = matches(mol, requireQuery(rdkit, HBA_SMARTS)).length;
  const hbd = d.NumHBD;
  const logp = d.CrippenClogP;
  const mw = d.exactmw;
  const rotb = d.NumRotatableBonds;
  const graph = morganGraph(rdkit, mol);
  const charge = graph.atoms.reduce((s, a) => s + a.charge, 0);
  const flags: boolean[] = [];
  if (opts.pains) flags.push(painsMatches(rdkit, mol, tables.pains).length === 0);
  if (opts.lipinski) flags.push(logp <= 5 && d.amw <= 500 && hba <= 10 && hbd <= 5);
  if (opts.veber) flags.push(rotb <= 10 && d.tpsa <= 140);
  if (opts.reos) {
    flags.push(
      within(mw, [200, 500]) &&
        within(logp, [-5, 5]) &&
        within(hbd, [0, 5]) &&
        within(hba, [0, 10]) &&
        within(charge, [-2, 2]) &&
        within(rotb, [0, 8]) &&
        within(d.NumHeavyAtoms, [15, 50]),
    );
  }
  if (opts.ghose) {
    flags.push(within(mw, [160, 480]) && within(logp, [0.4, 5.6]) && within(d.NumAtoms, [20, 70]) && within(d.CrippenMR, [40, 130]));
  }
  if (opts.ruleofthree) flags.push(mw <= 300 && logp <= 3 && hbd <= 3 && hba <= 3 && rotb <= 3);
  if (opts.qed) flags.push(within(qed(rdkit, mol, graph, d, tables.qed), opts.qed));
  // SA and NP-likeness are compared as the service reports them, rounded to 2 decimals.
  if (opts.sa) flags.push(within(pyRound(saScore(rdkit, mol, tables.sa), 2), opts.sa));
  if (opts.np) flags.push(within(pyRound(npLikeness(rdkit, mol, tables.np).score, 2), opts.np));
  return flags;
}

export function keep(flags: boolean[], operator: 'AND' | 'OR'): boolean {
  if (flags.length === 0) return true;
  return operator === 'AND' ? flags.every(Boolean) : flags.some(Boolean);
}

/** `<smiles> :  T, F, ...` (two spaces after the colon), or `<smiles>:` without flags. */
export function formatLine(smiles: string, flags: boolean[]): string {
  if (flags.length === 0) return `${smiles}:`;
  return `${smiles} :  ${flags.map((f) => (f ? 'T' : 'F')).join(', ')}`;
}
