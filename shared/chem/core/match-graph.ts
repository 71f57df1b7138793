/**
 * The molecule as the JavaScript SMARTS matcher (smarts-match.ts) sees it: per-atom arrays of
 * what SMARTS primitives ask, and neighbour lists, built from MinimalLib's molecule JSON
 * (commonchem.ts), so RDKit's own perception (aromaticity, Kekulé orders, implicit hydrogens,
 * its SSSR rings) is what the queries read.
 *
 * With `explicitH`, every implicit hydrogen becomes an atom bonded to its parent, appended after
 * the heavy atoms in parent order, as RDKit's addHs does (Crippen's typing needs them).
 */
import type { MolJson } from './commonchem.ts';

export const AROMATIC_BOND = 4;

export interface MatchGraph {
  /** Atoms, hydrogens added by `explicitH` included. */
  n: number;
  /** The atoms of the JSON (the first `heavy` atoms). */
  heavy: number;
  z: Uint8Array;
  aromatic: Uint8Array;
  charge: Int8Array;
  isotope: Uint16Array;
  /** Total hydrogens: implicit plus hydrogen neighbours. */
  hs: Uint8Array;
  implicitHs: Uint8Array;
  /** Explicit degree: neighbours in this graph. */
  degree: Uint8Array;
  /** Total valence: Kekulé bond orders plus implicit hydrogens. */
  valence: Uint8Array;
  /** SSSR rings holding the atom, the smallest of their sizes (0 when none), ring bonds. */
  rings: Uint8Array;
  minRing: Uint8Array;
  ringBonds: Uint8Array;
  nbrs: number[][];
  nbrBonds: number[][];
  /** 1, 2, 3 or AROMATIC_BOND. */
  bondType: Uint8Array;
  bondInRing: Uint8Array;
  /** The bonds of each SSSR ring. */
  ringBondLists: number[][];
  /** Answers of recursive SMARTS per atom (smarts-match.ts): 1 match, -1 no match, 0 not asked. */
  memo: Map<object, Int8Array>;
}

/**
 * Whether the JSON is in the domain the JavaScript matching was checked on: no explicit
 * hydrogen atoms, dummy atoms or radicals, and only single, double, triple and aromatic bonds.
 */
export function inMatchDomain(m: MolJson): boolean {
  for (const a of m.atoms) if (a.z < 2 || a.z > 118 || a.nRad !== 0) return false;
  for (const b of m.bonds) if (b.order < 1 || b.order > 3) return false;
  return true;
}

export function matchGraph(m: MolJson, explicitH = false): MatchGraph {
  const heavy = m.atoms.length;
  let added = 0;
  if (explicitH) for (const a of m.atoms) added += a.impHs;
  const n = heavy + added, nb = m.bonds.length + added;
  const g: MatchGraph = {
    n, heavy,
    z: new Uint8Array(n), aromatic: new Uint8Array(n), charge: new Int8Array(n), isotope: new Uint16Array(n),
    hs: new Uint8Array(n), implicitHs: new Uint8Array(n), degree: new Uint8Array(n), valence: new Uint8Array(n),
    rings: new Uint8Array(n), minRing: new Uint8Array(n), ringBonds: new Uint8Array(n),
    nbrs: Array.from({ length: n }, () => []), nbrBonds: Array.from({ length: n }, () => []),
    bondType: new Uint8Array(nb), bondInRing: new Uint8Array(nb), ringBondLists: [], memo: new Map(),
  };
  const link = (a: number, b: number, bond: number) => {
    g.nbrs[a].push(b);
    g.nbrBonds[a].push(bond);
    g.nbrs[b].push(a);
    g.nbrBonds[b].push(bond);
    g.degree[a]++;
    g.degree[b]++;
  };
  m.atoms.forEach((a, i) => {
    g.z[i] = a.z;
    g.aromatic[i] = m.aromaticAtoms.has(i) ? 1 : 0;
    g.charge[i] = a.chg;
    g.isotope[i] = a.isotope;
    g.valence[i] = a.impHs;
    if (explicitH) g.hs[i] = a.impHs;
    else g.hs[i] = g.implicitHs[i] = a.impHs;
  });
  m.bonds.forEach((b, i) => {
    g.bondType[i] = m.aromaticBonds.has(i) ? AROMATIC_BOND : b.order;
    g.valence[b.a] += b.order;
    g.valence[b.b] += b.order;
    link(b.a, b.b, i);
    if (m.atoms[b.a].z === 1) g.hs[b.b]++;
    if (m.atoms[b.b].z === 1) g.hs[b.a]++;
  });
  if (explicitH) {
    let h = heavy, bond = m.bonds.length;
    m.atoms.forEach((a, i) => {
      for (let k = 0; k < a.impHs; k++, h++, bond++) {
        g.z[h] = 1;
        g.valence[h] = 1;
        g.bondType[bond] = 1;
        g.valence[i] += 1;
        link(i, h, bond);
      }
      g.valence[i] -= a.impHs; // counted above as implicit hydrogens already
    });
  }
  for (const ring of m.rings) {
    const bonds: number[] = [];
    for (let k = 0; k < ring.length; k++) {
      const a = ring[k], b = ring[(k + 1) % ring.length];
      const idx = g.nbrs[a].indexOf(b);
      if (idx >= 0) bonds.push(g.nbrBonds[a][idx]);
      g.rings[a]++;
      if (g.minRing[a] === 0 || ring.length < g.minRing[a]) g.minRing[a] = ring.length;
    }
    for (const b of bonds) g.bondInRing[b] = 1;
    g.ringBondLists.push(bonds);
  }
  m.bonds.forEach((b, i) => {
    if (g.bondInRing[i]) {
      g.ringBonds[b.a]++;
      g.ringBonds[b.b]++;
    }
  });
  return g;
}
