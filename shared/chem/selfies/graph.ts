/**
 * The molecular graph behind the SELFIES encoder/decoder (selfies.ts): directed out-bond lists
 * that keep SMILES/SELFIES writing order, bond capacities of the default semantic constraints,
 * and kekulisation by perfect matching, tie-broken exactly as the Python `selfies` 2.2 package
 * does so that encoded strings agree symbol for symbol.
 */

export class SelfiesError extends Error {
  override name = 'SelfiesError';
}

// Bond capacities of the default semantic constraints (Python selfies 2.2, bond_constraints.py).
const CAPACITY: Record<string, number> = {
  H: 1, F: 1, Cl: 1, Br: 1, I: 1, B: 3, 'B+1': 2, 'B-1': 4, O: 2, 'O+1': 3, 'O-1': 1,
  N: 3, 'N+1': 4, 'N-1': 2, C: 4, 'C+1': 5, 'C-1': 3, P: 5, 'P+1': 6, 'P-1': 4,
  S: 6, 'S+1': 7, 'S-1': 5,
};
const DEFAULT_CAPACITY = 8;
const ORGANIC = new Set(['B', 'C', 'N', 'O', 'S', 'P', 'F', 'Cl', 'Br', 'I']);
const AROMATIC_VALENCES: Record<string, number[]> = {
  B: [3], Al: [3], C: [4], Si: [4], N: [3, 5], P: [3, 5], As: [3, 5], O: [2, 4], S: [2, 4], Se: [2, 4], Te: [2, 4],
};
const AROMATIC = new Set(Object.keys(AROMATIC_VALENCES).map((e) => e.toLowerCase()));
const ELEMENTS = new Set(
  ('H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr ' +
    'Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Rf Db Sg Bh ' +
    'Hs Mt Ds Rg Cn Fl Lv La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr').split(' '),
);
/** The 16 symbols that double as base-16 digits for branch lengths and ring distances. */
const INDEX_ALPHABET = ['[C]', '[Ring1]', '[Ring2]', '[Branch1]', '[=Branch1]', '[#Branch1]', '[Branch2]',
  '[=Branch2]', '[#Branch2]', '[O]', '[N]', '[=N]', '[=C]', '[#C]', '[S]', '[P]'];
const INDEX_CODE = new Map(INDEX_ALPHABET.map((s, i) => [s, i]));

type Stereo = '/' | '\\' | undefined;
interface Atom { element: string; aromatic: boolean; isotope?: number; chirality?: string; h?: number; charge: number; index: number }
interface Bond { src: number; dst: number; order: number; stereo: Stereo; ring: boolean }

function capacity(a: Atom): number {
  const key = a.charge === 0 ? a.element : `${a.element}${a.charge > 0 ? '+' : ''}${a.charge}`;
  return (CAPACITY[key] ?? DEFAULT_CAPACITY) - (a.h ?? 0);
}

/** Directed molecular graph: an atom's out-bond order is the order its bonds are written. */
class Graph {
  atoms: Atom[] = [];
  roots: number[] = [];
  out: (Bond | null)[][] = [];
  bonds = new Map<number, Bond>();
  count: number[] = [];
  ringFlag: boolean[] = [];
  /** Delocalisation subgraph: aromatic atom → partners over aromatic (order 1.5) bonds. */
  ds = new Map<number, number[]>();

  private key = (a: number, b: number) => a * 1_000_000 + b;
  addAtom(a: Atom, root: boolean): Atom {
    a.index = this.atoms.length;
    if (root) this.roots.push(a.index);
    this.atoms.push(a); this.out.push([]); this.count.push(0); this.ringFlag.push(false);
    if (a.aromatic) this.ds.set(a.index, []);
    return a;
  }
  /** Reserve the out-bond slot of a ring-opening digit; the closing digit fills it. */
  addPlaceholder(src: number): number {
    this.out[src].push(null);
    return this.out[src].length - 1;
  }
  private place(b: Bond, pos: number) {
    this.bonds.set(this.key(b.src, b.dst), b);
    const list = this.out[b.src];
    if (pos === -1 || pos === list.length) list.push(b);
    else if (list[pos] === null) list[pos] = b;
    else list.splice(pos, 0, b);
  }
  private delocalise(a: number, b: number) {
    if (!this.ds.has(a)) this.ds.set(a, []);
    if (!this.ds.has(b)) this.ds.set(b, []);
    this.ds.get(a)!.push(b); this.ds.get(b)!.push(a);
  }
  addBond(src: number, dst: number, order: number, stereo: Stereo) {
    this.place({ src, dst, order, stereo, ring: false }, -1);
    this.count[src] += order; this.count[dst] += order;
    if (order === 1.5) this.delocalise(src, dst);
  }
  addRingBond(a: number, b: number, order: number, aStereo: Stereo, bStereo: Stereo, aPos = -1, bPos = -1) {
    this.place({ src: a, dst: b, order, stereo: aStereo, ring: true }, aPos);
    this.place({ src: b, dst: a, order, stereo: bStereo, ring: true }, bPos);
    this.count[a] += order; this.count[b] += order;
    this.ringFlag[a] = this.ringFlag[b] = true;
    if (order === 1.5) this.delocalise(a, b);
  }
  bond(src: number, dst: number) { return this.bonds.get(this.key(src, dst)); }
  hasBond(a: number, b: number) { return this.bonds.has(this.key(Math.min(a, b), Math.max(a, b))); }
  setOrder(a: number, b: number, order: number) {
    if (a > b) [a, b] = [b, a];
    const ab = this.bond(a, b)!;
    if (ab.order === order) return;
    const old = ab.order;
    ab.order = order;
    if (ab.ring) this.bond(b, a)!.order = order;
    this.count[a] += order - old; this.count[b] += order - old;
  }

  /** Kekulise the delocalisation subgraph by perfect matching; false when impossible. */
  kekulise(): boolean {
    if (this.ds.size === 0) return true;
    const kept = [...this.ds.keys()].filter((n) => !this.pruned(n)).sort((x, y) => x - y);
    const label = new Map(kept.map((n, i) => [n, i]));
    const graph = kept.map((n) => this.ds.get(n)!.filter((m) => label.has(m)).map((m) => label.get(m)!));
    const matching = perfectMatching(graph);
    if (!matching) return false;
    for (const [node, adj] of this.ds) {
      for (const m of adj) this.setOrder(node, m, 1);
      this.atoms[node].aromatic = false;
      this.count[node] = Math.trunc(this.count[node]);
    }
    matching.forEach((m, i) => this.setOrder(kept[i], kept[m!], 2));
    this.ds.clear();
    return true;
  }
  /** Aromatic atoms that already have all their electrons used take no double bond. */
  private pruned(n: number): boolean {
    const adj = this.ds.get(n)!;
    if (adj.length === 0) return true;
    const atom = this.atoms[n];
    const valences = AROMATIC_VALENCES[atom.element];
    if (!valences) throw new SelfiesError(`kekulization failed: no aromatic valence for ${atom.element}`);
    let used = Math.trunc(this.count[n] - 0.5 * adj.length);
    if (atom.h === undefined) return valences.includes(used);
    used += atom.h;
    const free = valences[valences.length - 1] - atom.charge - used;
    return !(free >= 0 && free % 2 !== 0);
  }
}

// ---------------------------------------------------------------- matching (as in selfies 2.x)

/**
 * Greedy maximal matching (fewest free neighbours first), then augmenting paths from the
 * unmatched nodes in CPython `set.pop()` order, so ties resolve exactly as the reference does.
 */
function perfectMatching(graph: number[][]): (number | null)[] | null {
  const n = graph.length;
  const match: (number | null)[] = new Array(n).fill(null);
  const free = graph.map((g) => g.length);
  const heap: [number, number][] = graph.map((_, i) => [free[i], i]);
  const less = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
  while (heap.length) {
    let best = 0;
    for (let i = 1; i < heap.length; i++) if (less(heap[i], heap[best]) < 0) best = i;
    const [, node] = heap.splice(best, 1)[0];
    if (match[node] !== null || free[node] === 0) continue;
    const mate = graph[node].find((i) => match[i] === null)!;
    match[node] = mate; match[mate] = node;
    for (const adj of [...graph[node], ...graph[mate]]) {
      free[adj] -= 1;
      if (match[adj] === null && free[adj] > 0) heap.push([free[adj], adj]);
    }
  }
  const unmatched = new PySet(match.flatMap((m, i) => (m === null ? [i] : [])));
  while (unmatched.size > 0) {
    const root = unmatched.pop();
    const path = augmentingPath(graph, root, match);
    if (!path) return null;
    for (let i = 0; i < path.length; i += 2) { match[path[i]] = path[i + 1]; match[path[i + 1]] = path[i]; }
    unmatched.discard(path[0]); unmatched.discard(path[path.length - 1]);
  }
  return match;
}

function augmentingPath(graph: number[][], root: number, match: (number | null)[]): number[] | null {
  const parent: ([number, number] | null)[] = new Array(graph.length).fill(null);
  parent[root] = [-1, -1];
  const queue = [root];
  let end = -1;
  for (let q = 0; q < queue.length && end < 0; q++) {
    const node = queue[q];
    for (const adj of graph[node]) {
      const mate = match[adj];
      if (mate === null) {
        if (adj !== root) { parent[adj] = [node, adj]; end = adj; break; }
      } else if (parent[mate] === null) { parent[mate] = [node, adj]; queue.push(mate); }
    }
  }
  if (end < 0) return null;
  const path: number[] = [];
  for (let node = end; node !== root; node = parent[node]![0]) path.push(parent[node]![1], parent[node]![0]);
  return path;
}

/** CPython's set of small ints (open addressing, finger-based pop), enough to replay pop order. */
class PySet {
  private table: (number | null | 'dummy')[] = new Array(8).fill(null);
  private finger = 0;
  private fill = 0;
  size = 0;
  constructor(items: number[]) { for (const x of items) this.add(x); }
  private slotFor(x: number, table: (number | null | 'dummy')[]): number {
    const mask = table.length - 1;
    let i = x & mask, perturb = x;
    for (;;) {
      const probes = i + 9 <= mask ? 9 : 0;
      for (let j = i; j <= i + probes; j++) if (table[j] === null || table[j] === x) return j;
      perturb >>>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  private add(x: number) {
    const j = this.slotFor(x, this.table);
    if (this.table[j] === x) return;
    this.table[j] = x; this.fill++; this.size++;
    if (this.fill * 5 >= (this.table.length - 1) * 3) {
      let len = 8;
      while (len <= this.size * 4) len <<= 1;
      const next: (number | null | 'dummy')[] = new Array(len).fill(null);
      for (const e of this.table) if (typeof e === 'number') next[this.slotFor(e, next)] = e;
      this.table = next; this.fill = this.size;
    }
  }
  pop(): number {
    const mask = this.table.length - 1;
    let i = this.finger & mask;
    while (typeof this.table[i] !== 'number') i = (i + 1) & mask;
    const x = this.table[i] as number;
    this.table[i] = 'dummy'; this.size--; this.finger = i + 1;
    return x;
  }
  discard(x: number) {
    const i = this.table.indexOf(x);
    if (i >= 0) { this.table[i] = 'dummy'; this.size--; }
  }
}

export { Graph, capacity, INDEX_ALPHABET, INDEX_CODE, ORGANIC, AROMATIC, ELEMENTS };
export type { Atom, Bond, Stereo };
