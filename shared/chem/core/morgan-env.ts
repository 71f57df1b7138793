/**
 * Unfolded Morgan environment ids, reproducing RDKit's count-based Morgan fingerprint
 * (`GetMorganFingerprint(mol, r)` / `MorganGenerator(radius=r).GetSparseCountFingerprint`,
 * no chirality, bond types on) bit for bit. MinimalLib only exposes folded bit vectors, but
 * the NP-likeness and SA-score tables are keyed by the raw 32-bit ids, so the ids have to
 * be recomputed here from the molecule graph.
 *
 * The algorithm follows the published description of RDKit's implementation
 * (Code/GraphMol/Fingerprints/MorganGenerator.cpp, BSD): connectivity invariants hashed with
 * RDKit's portable copy of boost::hash (32-bit), one hash per layer over the sorted
 * (bond type, neighbour invariant) pairs, and suppression of environments whose bond set
 * has already been emitted.
 */
import type { Mol, RDKit } from './rdkit.ts';
import { elementSymbol } from './formula.ts';
import { readMolJson, type MolJson } from './commonchem.ts';

export interface MorganAtom {
  /** Atomic number. */
  z: number;
  /** Hydrogens: implicit and explicit counts plus hydrogen neighbours (getTotalNumHs(true)). */
  hs: number;
  charge: number;
  /** RDKit's int(getMass() - atomic weight): 0 unless the atom carries an isotope label. */
  deltaMass: number;
  inRing: boolean;
}

export interface MorganBond {
  a: number;
  b: number;
  /** RDKit Bond::BondType enum value (SINGLE 1, DOUBLE 2, TRIPLE 3, AROMATIC 12 ...). */
  type: number;
}

export interface MorganGraph {
  atoms: MorganAtom[];
  bonds: MorganBond[];
}

const AROMATIC = 12;

/** boost::hash_combine as RDKit compiles it: 32-bit seed, golden-ratio constant. */
function combine(seed: number, value: number): number {
  const mixed = ((value >>> 0) + 0x9e3779b9 + ((seed << 6) >>> 0) + (seed >>> 2)) >>> 0;
  return (seed ^ mixed) >>> 0;
}

function hashPair(first: number, second: number): number {
  return combine(combine(0, first), second);
}

const deltaCache = new Map<string, number>();

function averageMass(rdkit: RDKit, smiles: string): number | undefined {
  const mol = rdkit.get_mol(smiles);
  try {
    if (!mol || !mol.is_valid()) return undefined;
    return JSON.parse(mol.get_descriptors()).amw as number;
  } finally {
    mol?.delete();
  }
}

/**
 * RDKit's `int(atom.getMass() - atomicWeight(z))`: 0 for unlabelled atoms; for a label it
 * is the isotope's exact mass minus the standard weight, truncated (2H gives 1, 13C gives
 * 0). Both masses come from RDKit's own periodic table via single-atom molecules.
 */
function isotopeDelta(rdkit: RDKit, z: number, isotope: number): number {
  const symbol = elementSymbol(z);
  if (!isotope || symbol === '*') return 0;
  const key = `${z}/${isotope}`;
  let delta = deltaCache.get(key);
  if (delta === undefined) {
    const labelled = averageMass(rdkit, `[${isotope}${symbol}]`);
    const plain = averageMass(rdkit, `[${symbol}]`);
    delta = labelled === undefined || plain === undefined ? 0 : Math.trunc(labelled - plain);
    deltaCache.set(key, delta);
  }
  return delta;
}

/**
 * Build the graph from MinimalLib's `get_json()` (commonchem + rdkitRepresentation); callers
 * that already hold the parsed JSON pass it (MolView.json) instead of reading it again.
 */
export function morganGraph(rdkit: RDKit, mol: Mol, m: MolJson = readMolJson(mol)): MorganGraph {
  const ringAtoms = new Set(m.rings.flat());
  const atoms: MorganAtom[] = m.atoms.map((a, i) => ({
    z: a.z,
    hs: a.impHs,
    charge: a.chg,
    deltaMass: isotopeDelta(rdkit, a.z, a.isotope),
    inRing: ringAtoms.has(i),
  }));
  const bonds: MorganBond[] = m.bonds.map((b, i) => ({
    a: b.a,
    b: b.b,
    // commonchem writes bond order 0 for zero-order bonds; RDKit's ZERO type is 21.
    type: m.aromaticBonds.has(i) ? AROMATIC : bondType(b.order),
  }));
  return { atoms, bonds };
}

function bondType(order: number): number {
  if (order >= 1 && order <= 6) return order;
  return 21;
}

/** RDKit's getConnectivityInvariants with ring membership. */
function atomInvariants(g: MorganGraph, degree: Int32Array): number[] {
  const hNeighbours = g.atoms.map(() => 0);
  for (const b of g.bonds) {
    if (g.atoms[b.b].z === 1) hNeighbours[b.a]++;
    if (g.atoms[b.a].z === 1) hNeighbours[b.b]++;
  }
  return g.atoms.map((a, i) => {
    let h = 0;
    h = combine(h, a.z);
    h = combine(h, degree[i] + a.hs);
    h = combine(h, a.hs + hNeighbours[i]);
    h = combine(h, a.charge >>> 0);
    h = combine(h, a.deltaMass >>> 0);
    if (a.inRing) h = combine(h, 1);
    return h;
  });
}

const TWO_32 = 4294967296;

/**
 * Environment id → number of times it occurs, for radii 0..radius. Ids are unsigned 32-bit
 * integers equal to the keys of RDKit's unfolded count fingerprint. The map's insertion order
 * is part of the result (NP-likeness and SA score sum in that order).
 *
 * Neighbourhoods (bond sets) live in one flat word array and each atom's (bond type,
 * neighbour invariant) pairs are sorted as single numbers, which keeps allocation per atom
 * to the bond-set key string.
 */
export function morganCounts(g: MorganGraph, radius = 2): Map<number, number> {
  // The catalog's derivation asks twice per graph (NP-likeness, then the search fingerprint).
  let byRadius = counted.get(g);
  if (!byRadius) counted.set(g, (byRadius = new Map()));
  let counts = byRadius.get(radius);
  if (!counts) byRadius.set(radius, (counts = countEnvironments(g, radius)));
  return counts;
}

/** The answers of morganCounts per graph (the maps are shared: callers only read them). */
const counted = new WeakMap<MorganGraph, Map<number, Map<number, number>>>();

function countEnvironments(g: MorganGraph, radius: number): Map<number, number> {
  const n = g.atoms.length;
  const nb = g.bonds.length;
  const words = Math.max(1, Math.ceil(nb / 32));
  // Adjacency in bond order (each atom's neighbours in the order of its bonds).
  const degree = new Int32Array(n);
  for (const b of g.bonds) {
    degree[b.a]++;
    degree[b.b]++;
  }
  const first = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) first[i + 1] = first[i] + degree[i];
  const fill = first.slice(0, n);
  const nbrBond = new Int32Array(2 * nb);
  const nbrAtom = new Int32Array(2 * nb);
  g.bonds.forEach((b, i) => {
    nbrBond[fill[b.a]] = i;
    nbrAtom[fill[b.a]++] = b.b;
    nbrBond[fill[b.b]] = i;
    nbrAtom[fill[b.b]++] = b.a;
  });

  const counts = new Map<number, number>();
  const add = (id: number) => counts.set(id, (counts.get(id) ?? 0) + 1);

  let current = atomInvariants(g, degree);
  for (const id of current) add(id);

  const seen = new Set<string>();
  const dead = new Uint8Array(n);
  let hoods = new Uint32Array(n * words);
  const pairs = new Float64Array(Math.max(1, ...degree));

  for (let layer = 0; layer < radius; layer++) {
    // Atoms that are not processed this round pass 0 to their neighbours next round,
    // as RDKit's zero-initialised invariant vector does.
    const next = new Array<number>(n).fill(0);
    const roundHoods = hoods.slice();
    const thisRound: { key: string; invar: number; atom: number }[] = [];
    for (let i = 0; i < n; i++) {
      if (dead[i]) continue;
      if (degree[i] === 0) {
        dead[i] = 1;
        continue;
      }
      const base = i * words;
      let m = 0;
      for (let k = first[i]; k < first[i + 1]; k++) {
        const bond = nbrBond[k];
        const other = nbrAtom[k] * words;
        roundHoods[base + (bond >>> 5)] |= 1 << (bond & 31);
        for (let w = 0; w < words; w++) roundHoods[base + w] |= hoods[other + w];
        // (bond type, neighbour invariant) as one number: sorting it sorts by type, then invariant.
        pairs[m++] = g.bonds[bond].type * TWO_32 + current[nbrAtom[k]];
      }
      const sorted = pairs.subarray(0, m).sort();
      let invar = combine(layer, current[i]);
      for (let k = 0; k < m; k++) {
        const type = Math.floor(sorted[k] / TWO_32);
        invar = combine(invar, hashPair(type, sorted[k] - type * TWO_32));
      }
      next[i] = invar;
      const key = roundHoods.subarray(base, base + words).join(',');
      thisRound.push({ key, invar, atom: i });
      if (seen.has(key)) dead[i] = 1;
    }
    // RDKit sorts by (bond set, invariant, atom) and keeps the first of each bond set, i.e.
    // the smallest invariant; the order between different bond sets does not matter here.
    thisRound.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.invar - y.invar || x.atom - y.atom));
    for (const env of thisRound) {
      if (seen.has(env.key)) {
        dead[env.atom] = 1;
      } else {
        seen.add(env.key);
        add(env.invar);
      }
    }
    current = next;
    hoods = roundHoods;
  }
  return counts;
}


/**
 * An id → value table keyed by Morgan environment ids (NP-likeness model, SA-score
 * fragment scores). Sorted parallel typed arrays rather than a Map: the SA table has
 * 705k entries and each worker thread holds its own copy.
 */
export class FragmentTable {
  constructor(
    readonly ids: Uint32Array,
    readonly values: Float64Array,
  ) {
    for (let i = 1; i < ids.length; i++) {
      if (ids[i - 1] >= ids[i]) throw new Error('FragmentTable ids must be strictly ascending');
    }
  }

  get size(): number {
    return this.ids.length;
  }

  get(id: number): number | undefined {
    const { ids } = this;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return this.values[mid];
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** From `(id, value)` pairs in any order. */
  static fromPairs(pairs: [number, number][]): FragmentTable {
    pairs.sort((a, b) => a[0] - b[0]);
    return new FragmentTable(Uint32Array.from(pairs, (p) => p[0]), Float64Array.from(pairs, (p) => p[1]));
  }
}
