/**
 * Tautomer enumeration with the semantics of RDKit's MolStandardize TautomerEnumerator
 * (version 2022.09, default parameters): the MolVS-derived transforms in
 * data/tautomer-transforms.json applied over a SMILES-ordered map with RDKit's limits
 * (1000 tautomers, 1000 matched transforms), stereo removed from every atom and bond that any
 * transform touched.
 *
 * Written from RDKit's documented algorithm (Tautomer.cpp, BSD); the walk over the map is
 * reproduced step by step because the limits make the result depend on the visiting order.
 */
import data from '../data/tautomer-transforms.json' with { type: 'json' };
import type { Mol, RDKit } from '../core/rdkit.ts';
import {
  cloneGraph,
  matchAtoms,
  matchingMol,
  queryBonds,
  readGraph,
  sanitizedMol,
  type Graph,
} from './graph.ts';

interface Transform {
  name: string;
  query: Mol;
  bonds: [number, number][];
  /** New bond orders per query bond, or null to swap single and double. */
  orders: number[] | null;
  charges: number[] | null;
}

interface ScoreTerm {
  query: Mol;
  score: number;
}

interface Catalog {
  transforms: Transform[];
  terms: ScoreTerm[];
}

const ORDER: Record<string, number> = { '-': 1, '=': 2, '#': 3 };
const CHARGE: Record<string, number> = { '+': 1, '-': -1, '0': 0 };

const catalogs = new WeakMap<RDKit, Catalog>();

/** SMARTS are parsed once per RDKit instance (one per worker thread) and kept. */
export function catalog(rdkit: RDKit): Catalog {
  let c = catalogs.get(rdkit);
  if (c) return c;
  const qmol = (smarts: string): Mol => {
    const q = rdkit.get_qmol(smarts);
    if (!q || !q.is_valid()) throw new Error(`tautomer data: SMARTS does not parse: ${smarts}`);
    return q;
  };
  c = {
    transforms: data.transforms.map((t) => {
      const query = qmol(t.smarts);
      return {
        name: t.name,
        query,
        bonds: queryBonds(query),
        orders: t.bonds ? [...t.bonds].map((ch) => ORDER[ch]) : null,
        charges: t.charges ? [...t.charges].map((ch) => CHARGE[ch]) : null,
      };
    }),
    terms: data.scoring.terms.map((t) => ({ query: qmol(t.smarts), score: t.score })),
  };
  catalogs.set(rdkit, c);
  return c;
}

interface Entry {
  /** Kekulé graph of the (sanitised) tautomer, aromatic flags included. */
  graph: Graph;
  done: boolean;
  nAtoms: number;
  nBonds: number;
}

export type EnumerationStatus = 'completed' | 'max tautomers reached' | 'max transforms reached';

export interface TautomerSet {
  /** Canonical SMILES → tautomer, as RDKit keys them. */
  tautomers: Map<string, Graph>;
  status: EnumerationStatus;
}

/** Bond type as RDKit compares it: 0 stands for aromatic. */
function bondTypes(g: Graph): number[] {
  return g.bonds.map((b, i) => (g.aromaticBonds.has(i) ? 0 : b.order));
}

/** Stereo removal on touched atoms and bonds; true when something was actually removed. */
function clearStereo(g: Graph, atoms: Set<number>, bonds: Set<number>): boolean {
  let changed = false;
  for (const i of atoms) {
    if (g.atoms[i].stereo !== 'unspecified') {
      g.atoms[i].stereo = 'unspecified';
      changed = true;
    }
  }
  for (const i of bonds) {
    const b = g.bonds[i];
    if (b.stereo !== 'unspecified') {
      b.stereo = 'unspecified';
      delete b.stereoAtoms;
      changed = true;
    }
  }
  return changed;
}

/** Sanitise a graph and read back its canonical SMILES and its new Kekulé graph. */
function settle(rdkit: RDKit, g: Graph): { smiles: string; graph: Graph } | null {
  const mol = sanitizedMol(rdkit, g);
  if (!mol) return null;
  try {
    return { smiles: mol.get_smiles(), graph: readGraph(mol) };
  } finally {
    mol.delete();
  }
}

/** Keys kept sorted so that iteration follows std::map order while entries are added. */
function insertSorted(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  keys.splice(lo, 0, key);
  return lo;
}

function firstAfter(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Enumerate the tautomers of a sanitised molecule (RDKit TautomerEnumerator::enumerate). */
export function enumerateTautomers(rdkit: RDKit, mol: Mol, signal?: AbortSignal): TautomerSet {
  const { transforms } = catalog(rdkit);
  const { maxTautomers, maxTransforms } = data.limits;
  const input = readGraph(mol);
  const inputTypes = bondTypes(input);
  const map = new Map<string, Entry>([[mol.get_smiles(), { graph: input, done: false, nAtoms: 0, nBonds: 0 }]]);
  const keys = [...map.keys()];
  const modAtoms = new Set<number>();
  const modBonds = new Set<number>();
  let status: EnumerationStatus = 'completed';
  let completed = false;
  let bailOut = false;
  let nTransforms = 0;

  while (!completed && !bailOut) {
    for (let k = 0; k < keys.length; k = firstAfter(keys, keys[k])) {
      const entry = map.get(keys[k])!;
      if (entry.done) continue;
      signal?.throwIfAborted();
      const kmol = matchingMol(rdkit, entry.graph);
      try {
        for (const t of transforms) {
          if (bailOut || !kmol) break;
          const matches = matchAtoms(kmol, t.query);
          if (matches.length === 0) continue;
          nTransforms++;
          for (const match of matches) {
            if (nTransforms >= maxTransforms) {
              status = 'max transforms reached';
              bailOut = true;
            } else if (map.size >= maxTautomers) {
              status = 'max tautomers reached';
              bailOut = true;
            }
            if (bailOut) break;
            const product = applyTransform(entry.graph, match, t, modAtoms, modBonds);
            if (!product) continue;
            clearStereo(product, modAtoms, modBonds);
            const settled = settle(rdkit, product);
            if (!settled || map.has(settled.smiles)) continue;
            // Sanitisation can move bonds that no transform named (e.g. Cc1nc2ccccc2[nH]1).
            const types = bondTypes(settled.graph);
            types.forEach((type, i) => {
              if (type !== inputTypes[i]) modBonds.add(i);
            });
            map.set(settled.smiles, { graph: settled.graph, done: false, nAtoms: modAtoms.size, nBonds: modBonds.size });
            insertSorted(keys, settled.smiles);
          }
        }
      } finally {
        kmol?.delete();
      }
      entry.done = true;
    }
    completed = rekey(rdkit, map, keys, modAtoms, modBonds);
    if (bailOut && map.size < maxTautomers && status === 'max tautomers reached') {
      status = 'completed';
      bailOut = false;
    }
  }
  const tautomers = new Map<string, Graph>();
  for (const key of keys) tautomers.set(key, map.get(key)!.graph);
  return { tautomers, status };
}

/** Product of one transform match on a Kekulé graph; null when a bond is missing. */
function applyTransform(
  g: Graph,
  match: number[],
  t: Transform,
  modAtoms: Set<number>,
  modBonds: Set<number>,
): Graph | null {
  const p = cloneGraph(g);
  const first = match[0];
  const last = match[match.length - 1];
  modAtoms.add(first);
  modAtoms.add(last);
  p.atoms[first].hs = Math.max(0, p.atoms[first].hs - 1);
  p.atoms[last].hs += 1;
  for (let i = 0; i < t.bonds.length; i++) {
    const [qa, qb] = t.bonds[i];
    const a = match[qa];
    const b = match[qb];
    const bi = p.bonds.findIndex((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
    if (bi < 0) return null;
    const bond = p.bonds[bi];
    if (t.orders) bond.order = t.orders[i];
    else if (bond.order === 1) bond.order = 2;
    else if (bond.order === 2) bond.order = 1;
    modBonds.add(bi);
  }
  if (t.charges) match.forEach((ai, i) => (p.atoms[ai].chg += t.charges![i] ?? 0));
  return p;
}

/**
 * End of a pass: tautomers stored before the touched sets grew lose their stereo on the newly
 * touched atoms and bonds and are keyed again (a key that now collides drops the later copy).
 * Returns whether every tautomer has been expanded.
 */
function rekey(rdkit: RDKit, map: Map<string, Entry>, keys: string[], modAtoms: Set<number>, modBonds: Set<number>): boolean {
  let completed = true;
  let k = 0;
  while (k < keys.length) {
    const key = keys[k];
    const e = map.get(key)!;
    if (!e.done) completed = false;
    if ((e.nAtoms < modAtoms.size || e.nBonds < modBonds.size) && clearStereo(e.graph, modAtoms, modBonds)) {
      map.delete(key);
      keys.splice(k, 1);
      e.nAtoms = modAtoms.size;
      e.nBonds = modBonds.size;
      const settled = settle(rdkit, e.graph);
      if (settled && !map.has(settled.smiles)) {
        e.graph = settled.graph;
        map.set(settled.smiles, e);
        k = insertSorted(keys, settled.smiles);
      }
    } else {
      k++;
    }
  }
  return completed;
}
