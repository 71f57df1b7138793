/**
 * Stereoisomer enumeration (docs/spec/chem-service.md §2.1 (1)). MinimalLib has no EnumerateStereoisomers, so:
 *  1. find every unassigned element that *could* be stereogenic: tetrahedral centres and double
 *     bonds whose substituents differ, plus those whose equal substituents still lead to other
 *     candidates (dependent and pseudo-asymmetric centres, e.g. C4 of 3,4,5-trimethylheptane or
 *     1,4-disubstituted rings, which native RDKit's legacy perception misses);
 *  2. write each combination of configurations into RDKit's JSON molecule, and let RDKit perceive
 *     stereo afresh on the written SMILES: it drops tags that are not stereogenic in that
 *     particular isomer and canonicalises, so duplicates collapse by their canonical SMILES.
 * Over-generous candidates only cost time; missing ones would lose isomers, hence step 1 errs wide.
 */
import { AppError } from '../../errors.ts';
import { type RDKit, withMol } from '../core/rdkit.ts';

export const DEFAULT_MAX_ISOMERS = 1024;

export interface StereoResult {
  /** Unique canonical isomeric SMILES, sorted lexicographically. */
  isomers: string[];
  /** True when the cap (or the attempt budget) stopped the enumeration before it was exhausted. */
  truncated: boolean;
  /** Unassigned stereo elements that were varied. */
  elements: number;
}

interface JAtom { z?: number; impHs?: number; chg?: number; stereo?: string }
interface JBond { atoms: [number, number]; bo?: number; stereo?: string; stereoAtoms?: [number, number] }
interface JMol { atoms: JAtom[]; bonds: JBond[]; extensions?: { cipRanks?: number[]; aromaticBonds?: number[] }[] }

/** Elements that keep a tetrahedral configuration with three neighbours and a lone pair. */
const PYRAMIDAL = new Set([15, 16, 33, 34]);

export function enumerateStereoisomers(
  rdkit: RDKit, smiles: string, maxIsomers = DEFAULT_MAX_ISOMERS, signal?: AbortSignal,
): StereoResult {
  const [json, input] = withMol(rdkit, smiles, (mol) => [mol.get_json(), mol.get_smiles()]);
  const doc = JSON.parse(json) as { defaults: { atom: JAtom; bond: JBond }; molecules: JMol[] };
  const mol = doc.molecules[0];
  const { atomCandidates, bondCandidates } = findCandidates(mol, doc.defaults.atom, doc.defaults.bond);
  const n = atomCandidates.length + bondCandidates.length;
  const canonical = (text: string, details = '{}') => {
    const m = rdkit.get_mol(text, details);
    try {
      if (!m || !m.is_valid()) throw new AppError(422, `Could not build a stereoisomer of ${smiles}`, 'invalid_input');
      return m.get_smiles();
    } finally {
      m?.delete();
    }
  };
  if (n === 0) return { isomers: [input], truncated: false, elements: 0 };

  const seen = new Set<string>();
  // Each configuration costs two parses; past this budget the answer is flagged as truncated.
  const budget = Math.max(4096, 4 * maxIsomers);
  const total = 2 ** Math.min(n, 52);
  let mask = 0;
  for (; mask < total && mask < budget && seen.size <= maxIsomers; mask++) {
    if (signal?.aborted) throw new AppError(504, 'Stereoisomer enumeration was cancelled or timed out');
    atomCandidates.forEach((a, i) => { mol.atoms[a].stereo = (mask / 2 ** i) % 2 >= 1 ? 'cw' : 'ccw'; });
    bondCandidates.forEach((b, j) => {
      const bond = mol.bonds[b.bond];
      bond.stereo = (mask / 2 ** (atomCandidates.length + j)) % 2 >= 1 ? 'trans' : 'cis';
      bond.stereoAtoms = b.stereoAtoms;
    });
    // Read without stereo perception so the written configuration survives, then re-read the
    // SMILES with full perception: that drops tags which are not stereogenic in this isomer.
    const written = canonical(JSON.stringify(doc), '{"assignStereo":false}');
    seen.add(canonical(written));
  }
  const found = [...seen];
  const truncated = found.length > maxIsomers || (mask < total && mask >= budget);
  return { isomers: found.slice(0, maxIsomers).sort(), truncated, elements: n };
}

function findCandidates(mol: JMol, atomDefaults: JAtom, bondDefaults: JBond) {
  const atoms = mol.atoms.map((a) => ({ ...atomDefaults, ...a }));
  const bonds = mol.bonds.map((b) => ({ ...bondDefaults, ...b }));
  const rdkitExt = mol.extensions?.find((e) => e.cipRanks);
  const ranks = rdkitExt?.cipRanks ?? atoms.map((_, i) => i);
  // JSON bonds are Kekulé; aromatic ones (even in large rings, e.g. porphyrins) carry no E/Z.
  const aromatic = new Set(rdkitExt?.aromaticBonds ?? []);
  const nbrs: number[][] = atoms.map(() => []);
  bonds.forEach((b) => { nbrs[b.atoms[0]].push(b.atoms[1]); nbrs[b.atoms[1]].push(b.atoms[0]); });
  const heavy = (i: number) => nbrs[i].filter((j) => atoms[j].z !== 1);
  const hCount = (i: number) => (atoms[i].impHs ?? 0) + nbrs[i].filter((j) => atoms[j].z === 1).length;
  const bondOf = (i: number, j: number) => bonds.find((b) => (b.atoms[0] === i && b.atoms[1] === j) || (b.atoms[0] === j && b.atoms[1] === i))!;
  const assigned = (s?: string) => s === 'cw' || s === 'ccw' || s === 'cis' || s === 'trans';

  // Smallest ring through a bond (0 if none): double bonds in rings below 8 atoms are fixed.
  const ringSize = (u: number, v: number) => {
    const dist = new Map([[u, 0]]);
    const queue = [u];
    for (let q = 0; q < queue.length; q++) {
      const x = queue[q];
      for (const y of nbrs[x]) {
        if ((x === u && y === v) || dist.has(y)) continue;
        if (y === v) return dist.get(x)! + 2;
        dist.set(y, dist.get(x)! + 1);
        queue.push(y);
      }
    }
    return 0;
  };

  // Structural candidates, before symmetry is considered.
  const tetra = new Set<number>();
  atoms.forEach((a, i) => {
    if (assigned(a.stereo) || a.z === 1) return;
    const h = hCount(i), heavyN = heavy(i).length;
    const orders = nbrs[i].map((j) => bondOf(i, j).bo ?? 1);
    if (h > 1 || orders.some((o) => o !== 1)) {
      // Sulfoxides, phosphine oxides, phosphates: one double bond, three or four neighbours.
      const oneDouble = orders.filter((o) => o === 2).length === 1 && orders.every((o) => o <= 2);
      if (!(PYRAMIDAL.has(a.z!) && h === 0 && oneDouble && nbrs[i].length >= 3)) return;
    }
    const degree = heavyN + h;
    if (degree === 4) tetra.add(i);
    else if (degree === 3 && (PYRAMIDAL.has(a.z!) || (a.z === 7 && nbrs[i].some((j) => ringSize(i, j) === 3)))) tetra.add(i);
  });
  const dbl = new Map<number, [number, number]>(); // bond index → its end atoms
  bonds.forEach((b, k) => {
    if (b.bo !== 2 || assigned(b.stereo) || aromatic.has(k)) return;
    const [u, v] = b.atoms;
    const size = ringSize(u, v);
    if (size > 0 && size < 8) return;
    const ok = (x: number, other: number) => {
      const subs = heavy(x).filter((y) => y !== other);
      const multiple = nbrs[x].some((y) => y !== other && (bondOf(x, y).bo ?? 1) !== 1);
      return !multiple && subs.length >= 1 && subs.length + hCount(x) === (atoms[x].z === 7 ? 1 : 2);
    };
    if (ok(u, v) && ok(v, u)) dbl.set(k, [u, v]);
  });

  // Equal substituents are only tolerable if their branches still contain candidate elements
  // (then the configuration elsewhere can make them differ); iterate to a fixed point.
  const branchHasCandidate = (from: number, start: number) => {
    const seen = new Set([from, start]);
    const stack = [start];
    while (stack.length) {
      const x = stack.pop()!;
      if (tetra.has(x) && x !== from) return true;
      for (const y of nbrs[x]) if (!seen.has(y)) { seen.add(y); stack.push(y); }
    }
    for (const [, [u, v]] of dbl) if (seen.has(u) && seen.has(v) && u !== from && v !== from) return true;
    return false;
  };
  const distinct = (center: number, subs: number[]) => {
    const byRank = new Map<number, number[]>();
    for (const s of subs) byRank.set(ranks[s], [...(byRank.get(ranks[s]) ?? []), s]);
    return [...byRank.values()].every((group) => group.length === 1 || group.every((s) => branchHasCandidate(center, s)));
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const i of [...tetra]) {
      if (!distinct(i, heavy(i))) { tetra.delete(i); changed = true; }
    }
    for (const [k, [u, v]] of [...dbl]) {
      if (!distinct(u, heavy(u).filter((y) => y !== v)) || !distinct(v, heavy(v).filter((y) => y !== u))) {
        dbl.delete(k); changed = true;
      }
    }
  }
  return {
    atomCandidates: [...tetra],
    bondCandidates: [...dbl].map(([bond, [u, v]]) => ({
      bond, stereoAtoms: [heavy(u).find((y) => y !== v)!, heavy(v).find((y) => y !== u)!] as [number, number],
    })),
  };
}
