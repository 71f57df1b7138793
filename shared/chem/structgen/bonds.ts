/**
 * Stages 2 and 3 of the structure generator, per skeleton: give atoms their elements, then
 * raise bond orders until the formula's bond budget is spent, keeping one molecule per
 * isomorphism class. Molecules from different skeletons are never isomorphic (the skeleton is
 * an invariant), and coloured skeletons with different certificates are never isomorphic
 * either, so the duplicate sets stay per skeleton and per coloured skeleton: memory is bounded
 * by one skeleton's molecules, not by the whole answer.
 *
 * The bad-substructure classes that concern bond orders (surge -B1..-B6) become per-bond caps
 * and "not both multiple" pairs, computed once per skeleton from its rings as surge does.
 */
import { canonical } from './canon.ts';
import type { Formula } from './formula.ts';
import { inducedCycles } from './graph.ts';

export interface Molecule {
  symbols: string[];
  /** [a, b, order] with order 1..3. */
  bonds: [number, number, number][];
  hydrogens: number[];
}

export interface BondRules {
  maxOrder: 2 | 3;
  bad: ReadonlySet<number>;
}

/** Per-edge order caps and forbidden multiple-bond pairs for one skeleton (surge -B1..-B6). */
function bondLimits(nb: number[], n: number, edges: [number, number][], rules: BondRules) {
  const index = new Map<number, number>(edges.map(([a, b], i) => [a * 64 + b, i]));
  const id = (a: number, b: number) => index.get(a < b ? a * 64 + b : b * 64 + a)!;
  const cap = new Int8Array(edges.length).fill(rules.maxOrder);
  const { bad } = rules;
  const needRings = [1, 2, 3, 4, 6].some((c) => bad.has(c));
  const rings = needRings ? inducedCycles(nb, n, 8).map((r) => r.map(([a, b]) => id(a, b))) : [];
  const ends = (set: number[]) => {
    // Atoms touched an odd number of times: the two ends of a shared path.
    const c = new Map<number, number>();
    for (const e of set) for (const x of edges[e]) c.set(x, (c.get(x) ?? 0) + 1);
    return [...c].filter(([, k]) => k % 2 === 1).map(([x]) => x);
  };
  const single = (list: number[], atoms: number[]) => {
    for (const e of list) if (atoms.includes(edges[e][0]) || atoms.includes(edges[e][1])) cap[e] = 1;
  };
  if (bad.has(1) && rules.maxOrder === 3) for (const r of rings) if (r.length <= 7) for (const e of r) cap[e] = Math.min(cap[e], 2);
  for (let i = 0; i < rings.length; i++) {
    for (let j = i + 1; j < rings.length; j++) {
      const [ri, rj] = [rings[i], rings[j]];
      const shared = ri.filter((e) => rj.includes(e));
      const union = [...new Set([...ri, ...rj])];
      const rest = union.filter((e) => !shared.includes(e));
      const [si, sj] = [ri.length, rj.length];
      if (bad.has(2) && shared.length === 1 && si <= 6 && sj <= 6) {
        // Bredt, one shared bond (ring pairs 33, 34, 35; 36, 44, 45 for the neighbours).
        if (si * sj <= 15) cap[shared[0]] = 1;
        if (si + sj <= 9) single(rest, edges[shared[0]]);
      }
      if (bad.has(3) && shared.length === 2 && si !== 3 && sj !== 3 && si <= 6 && sj <= 6 && si + sj !== 12) {
        for (const e of shared) cap[e] = 1;
        single(rest, ends(shared));
      }
      if (bad.has(4) && shared.length === 3 && si === 6 && sj === 6) single(union, ends(shared));
    }
  }
  // Allenes: a centre with exactly two heavy neighbours may not carry two multiple bonds.
  const pairs: [number, number][] = [];
  const inSmallRing = new Set<number>();
  for (const r of rings) for (const e of r) for (const x of edges[e]) inSmallRing.add(x);
  for (let x = 0; x < n; x++) {
    const ns: number[] = [];
    for (let w = 0; w < n; w++) if (nb[x] & (1 << w)) ns.push(w);
    if (ns.length !== 2) continue;
    if (bad.has(5) || (bad.has(6) && inSmallRing.has(x))) pairs.push([id(x, ns[0]), id(x, ns[1])]);
  }
  return { cap, pairs };
}

/** Every molecule on this skeleton, one per isomorphism class; `null` now and then as a tick. */
export function* moleculesOn(nb: number[], formula: Formula, rules: BondRules): Generator<Molecule | null> {
  const n = formula.heavyAtoms;
  const edges: [number, number][] = [];
  const deg = new Int32Array(n);
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (nb[a] & (1 << b)) { edges.push([a, b]); deg[a]++; deg[b]++; }
  const extra = formula.bondOrderSum - edges.length;
  if (extra < 0 || extra > edges.length * (rules.maxOrder - 1)) return;
  const { cap, pairs } = bondLimits(nb, n, edges, rules);
  const types = formula.elements;
  const remain = types.map((t) => t.count);
  const colour = new Uint8Array(n);
  const colouredSeen = new Set<string>();
  const skeletonAdj = new Uint8Array(n * n);
  for (const [a, b] of edges) skeletonAdj[a * n + b] = skeletonAdj[b * n + a] = 1;

  function* assign(v: number): Generator<Molecule | null> {
    if (v === n) {
      const { cert, rigid } = canonical({ n, colour, adj: skeletonAdj });
      if (colouredSeen.has(cert)) return;
      colouredSeen.add(cert);
      yield* orders(rigid);
      return;
    }
    for (let t = 0; t < types.length; t++) {
      if (remain[t] === 0 || types[t].valence < deg[v]) continue;
      remain[t]--;
      colour[v] = t;
      yield* assign(v + 1);
      remain[t]++;
    }
  }

  /** Bond orders on the coloured skeleton; a rigid one (no symmetry) cannot give duplicates. */
  function* orders(rigid: boolean): Generator<Molecule | null> {
    const free = Int32Array.from({ length: n }, (_, v) => types[colour[v]].valence - deg[v]);
    const order = new Uint8Array(edges.length).fill(1);
    const seen = new Set<string>();
    const adj = new Uint8Array(n * n);
    let ticks = 0;
    function* place(e: number, left: number): Generator<Molecule | null> {
      if (left === 0) {
        if (pairs.some(([p, q]) => order[p] > 1 && order[q] > 1)) return;
        if (!rigid) {
          adj.fill(0);
          edges.forEach(([a, b], i) => { adj[a * n + b] = adj[b * n + a] = order[i]; });
          const cert = canonical({ n, colour, adj }).cert;
          if (seen.has(cert)) return;
          seen.add(cert);
        }
        yield {
          symbols: Array.from(colour, (c) => types[c].symbol),
          bonds: edges.map(([a, b], i) => [a, b, order[i]]),
          hydrogens: Array.from(free),
        };
        return;
      }
      if (e === edges.length) return;
      if (++ticks % 4096 === 0) yield null;
      const [a, b] = edges[e];
      const most = Math.min(cap[e] - 1, free[a], free[b], left);
      for (let k = most; k >= 0; k--) {
        order[e] = 1 + k;
        free[a] -= k;
        free[b] -= k;
        yield* place(e + 1, left - k);
        free[a] += k;
        free[b] += k;
      }
      order[e] = 1;
    }
    yield* place(0, extra);
  }

  yield* assign(0);
}
