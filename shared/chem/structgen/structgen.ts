/**
 * Structure generator: every constitutional isomer of a molecular formula, exactly once.
 *
 * Same three stages as surge (McKay, Yirik, Steinbeck, J Cheminform 2022, 14:24), written anew:
 * connected skeletons by canonical augmentation (structgen-skeleton.ts), then elements and bond
 * orders with isomorph rejection per skeleton (structgen-bonds.ts). Molecules are graphs: the
 * Kekulé structures of an aromatic ring that are not related by a symmetry are different
 * graphs and are counted separately, as surge does without -R.
 *
 * The default restrictions are the ones the original service passes to surge
 * (`-P -T -B1,2,3,4,5,7,9 -t0 -f0`): planar skeleton, no triple bonds, surge's bad-substructure
 * classes 1-5, 7 and 9, no 3-rings and no 4-cycles. Each can be switched off.
 */
import { AppError } from '../../errors.ts';
import type { RDKit } from '../core/rdkit.ts';
import { moleculesOn, type Molecule } from './bonds.ts';
import { parseFormula, type Formula } from './formula.ts';
import { atomOnTwoSmallRings, hasConeP4orEaredK4, hasK33orK24 } from './graph.ts';
import { isPlanar } from './planar.ts';
import { skeletons } from './skeleton.ts';

export type { Molecule };

export interface StructgenOptions {
  planar: boolean;
  allowTripleBonds: boolean;
  /** surge -B classes to avoid (1..9). */
  badSubstructures: number[];
  allowThreeRings: boolean;
  allowFourCycles: boolean;
}

export const SURGE_DEFAULTS: StructgenOptions = {
  planar: true,
  allowTripleBonds: false,
  badSubstructures: [1, 2, 3, 4, 5, 7, 9],
  allowThreeRings: false,
  allowFourCycles: false,
};

export const NO_RESTRICTIONS: StructgenOptions = {
  planar: false, allowTripleBonds: true, badSubstructures: [], allowThreeRings: true, allowFourCycles: true,
};

export const BAD_SUBSTRUCTURE_CLASSES: Record<number, string> = {
  1: 'no triple bonds in rings up to length 7',
  2: "Bredt's rule for two rings sharing one bond (ring sizes 33, 34, 35, 36, 44, 45)",
  3: "Bredt's rule for two rings sharing two bonds (ring sizes up to 5 and 6)",
  4: "Bredt's rule for two 6-rings sharing three bonds",
  5: 'no cumulated double bonds A=A=A (centre with two heavy neighbours), in rings or not',
  6: 'no cumulated double bonds A=A=A in rings up to length 8',
  7: 'no K3,3 or K2,4 subgraph',
  8: 'no cone of a 4-vertex path and no K4 with a 3-edge ear',
  9: 'no atom in more than one ring of length 3 or 4',
};

/** The restrictions in force, described the way the later upstream service reports surge's flags. */
export function describeSettings(o: StructgenOptions): Record<string, string> {
  const s: Record<string, string> = {};
  if (o.planar) s['-P'] = 'planar skeletons only';
  if (!o.allowTripleBonds) s['-T'] = 'no triple bonds';
  if (o.badSubstructures.length) {
    s[`-B${o.badSubstructures.join(',')}`] = o.badSubstructures.map((c) => `${c}: ${BAD_SUBSTRUCTURE_CLASSES[c]}`).join('; ');
  }
  if (!o.allowThreeRings) s['-t0'] = 'no rings of length 3';
  if (!o.allowFourCycles) s['-f0'] = 'no cycles of length 4';
  return s;
}

/**
 * Every molecule of the formula under the options. Yields `null` now and then even when no
 * molecule is ready, so a caller can check for cancellation and report progress.
 */
export function* generateMolecules(formula: Formula, o: StructgenOptions): Generator<Molecule | null> {
  const n = formula.heavyAtoms;
  if (formula.bondOrderSum < n - 1) return; // too many hydrogens for a connected molecule
  const bad = new Set(o.badSubstructures);
  const atLeast = [n, 0, 0, 0, 0];
  for (const e of formula.elements) for (let d = 1; d <= Math.min(e.valence, 4); d++) atLeast[d] += e.count;
  // atLeast[d]: atoms able to carry d skeleton bonds (surge's default maximum degree is 4).
  for (const skeleton of skeletons({
    n, maxEdges: formula.bondOrderSum, atLeast, noTriangles: !o.allowThreeRings, noFourCycles: !o.allowFourCycles,
  })) {
    if (skeleton === null) { yield null; continue; }
    if (o.planar && !isPlanar(skeleton, n)) continue;
    if (bad.has(7) && hasK33orK24(skeleton, n)) continue;
    if (bad.has(8) && hasConeP4orEaredK4(skeleton, n)) continue;
    if (bad.has(9) && atomOnTwoSmallRings(skeleton, n)) continue;
    yield* moleculesOn(skeleton, formula, { maxOrder: o.allowTripleBonds ? 3 : 2, bad });
  }
}

/** A SMILES with every atom bracketed and its hydrogens explicit, so no valence model is needed. */
export function moleculeSmiles(m: Molecule): string {
  const n = m.symbols.length;
  const nbrs: { to: number; order: number }[][] = Array.from({ length: n }, () => []);
  for (const [a, b, order] of m.bonds) { nbrs[a].push({ to: b, order }); nbrs[b].push({ to: a, order }); }
  const sym = (o: number) => (o === 2 ? '=' : o === 3 ? '#' : '');
  const visited = new Uint8Array(n);
  const opened = new Map<number, string[]>(); // atom -> ring-closure digits to write on it
  let ring = 0;
  const label = (r: number) => (r < 10 ? String(r) : `%${r}`);
  // First pass: DFS tree; each non-tree edge joins an atom to an ancestor and becomes a ring bond.
  const parent = new Int32Array(n).fill(-1);
  const children: number[][] = Array.from({ length: n }, () => []);
  const order: number[] = [];
  const dfs = (v: number) => {
    visited[v] = 1;
    order.push(v);
    for (const { to } of nbrs[v]) if (!visited[to]) { parent[to] = v; children[v].push(to); dfs(to); }
  };
  dfs(0);
  const position = new Int32Array(n);
  order.forEach((v, i) => { position[v] = i; });
  for (const [a, b, o] of m.bonds) {
    if (parent[a] === b || parent[b] === a) continue;
    const [first, last] = position[a] < position[b] ? [a, b] : [b, a];
    const r = label(++ring);
    opened.set(first, [...(opened.get(first) ?? []), sym(o) + r]);
    opened.set(last, [...(opened.get(last) ?? []), r]);
  }
  const bondTo = (a: number, b: number) => sym(nbrs[a].find((x) => x.to === b)!.order);
  const write = (v: number): string => {
    const h = m.hydrogens[v];
    let s = `[${m.symbols[v]}${h ? 'H' + (h > 1 ? h : '') : ''}]${(opened.get(v) ?? []).join('')}`;
    children[v].forEach((c, i) => {
      const part = bondTo(v, c) + write(c);
      s += i < children[v].length - 1 ? `(${part})` : part;
    });
    return s;
  };
  return write(0);
}

/** RDKit canonical SMILES of a generated molecule. */
export function canonicalSmiles(rdkit: RDKit, m: Molecule): string {
  const smi = moleculeSmiles(m);
  const mol = rdkit.get_mol(smi);
  try {
    if (!mol || !mol.is_valid()) throw new AppError(500, `Generated structure could not be read by RDKit: ${smi}`);
    return mol.get_smiles();
  } finally {
    mol?.delete();
  }
}

export { parseFormula };
