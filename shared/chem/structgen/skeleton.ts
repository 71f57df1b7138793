/**
 * Stage 1 of the structure generator: every connected simple graph (the heavy-atom skeleton,
 * bond orders ignored) that a formula can have, each isomorphism class exactly once.
 *
 * Method: McKay's canonical augmentation by vertex addition, as in nauty's geng on which surge
 * builds. A graph on k+1 vertices is accepted from its parent on k vertices only if the added
 * vertex lies in the automorphism orbit of the child's canonical deletion vertex: the non-cut
 * vertex of least (degree, neighbour-degree sum), ties broken by the largest canonical position.
 * Deleting a non-cut vertex keeps the parent connected, so every connected graph has exactly one
 * parent class and is reached from it; children of one parent that are isomorphic (added along
 * neighbour sets related by a parent automorphism) are collapsed by their certificate.
 *
 * Properties inherited by induced subgraphs prune early: the bond budget (each later vertex adds
 * an edge), the degree profile the formula's valences allow, no triangles and no 4-cycles.
 */
import { canonical, sameOrbit, type LabelledGraph } from './canon.ts';
import { nonCutVertices, popcount } from './graph.ts';

const subsetCache = new Map<number, number[]>();

/** Non-empty subsets of {0..k-1} with at most `most` members, as bitmasks (cached). */
function subsets(k: number, most: number): number[] {
  const key = k * 64 + most;
  let list = subsetCache.get(key);
  if (!list) {
    list = [];
    const out = list;
    const pick = (from: number, mask: number, size: number) => {
      if (size > 0) out.push(mask);
      if (size === most) return;
      for (let i = from; i < k; i++) pick(i + 1, mask | (1 << i), size + 1);
    };
    pick(0, 0, 0);
    subsetCache.set(key, list);
  }
  return list;
}

export interface SkeletonLimits {
  n: number;
  /** Most edges the skeleton may have (the total heavy-atom bond order). */
  maxEdges: number;
  /** atLeast[d] = number of atoms whose valence is at least d (d = 1..4+). */
  atLeast: number[];
  noTriangles: boolean;
  noFourCycles: boolean;
}

/** Yields neighbour bitmasks of each skeleton; `null` now and then so callers can check for cancellation. */
export function* skeletons(lim: SkeletonLimits): Generator<number[] | null> {
  const { n, maxEdges, atLeast } = lim;
  const maxDeg = atLeast.findLastIndex((c, d) => d > 0 && c > 0);
  const nb = new Array<number>(n).fill(0);
  const deg = new Int32Array(n);
  let work = 0;

  const degreesFit = (k: number): boolean => {
    const over = new Int32Array(maxDeg + 2);
    for (let v = 0; v < k; v++) over[Math.min(deg[v], maxDeg + 1)]++;
    // Vertices of degree >= d may not outnumber atoms of valence >= d.
    let cum = 0;
    for (let d = maxDeg + 1; d >= 1; d--) {
      cum += over[d];
      if (cum > (atLeast[d] ?? 0)) return false;
    }
    return true;
  };

  const graphOf = (k: number): LabelledGraph => {
    const adj = new Uint8Array(k * k);
    for (let v = 0; v < k; v++) for (let w = 0; w < k; w++) if (nb[v] & (1 << w)) adj[v * k + w] = 1;
    return { n: k, colour: new Uint8Array(k), adj };
  };

  /** Certificate of the child if its new vertex (k-1) is the canonical one to delete, else null. */
  const accepted = (k: number): string | null => {
    const v = k - 1;
    const key = (x: number) => {
      let s = 0;
      for (let w = 0; w < k; w++) if (nb[x] & (1 << w)) s += deg[w];
      return deg[x] * 64 + s;
    };
    const cut = nonCutVertices(nb, k);
    const best = Math.min(...cut.map(key));
    if (key(v) !== best) return null;
    const g = graphOf(k);
    const { cert, lab, cells } = canonical(g);
    const cands = cut.filter((x) => key(x) === best);
    if (cands.length === 1) return cert;
    const pos = new Int32Array(k);
    for (let i = 0; i < k; i++) pos[lab[i]] = i;
    const d = cands.reduce((a, b) => (pos[b] > pos[a] ? b : a));
    if (d === v) return cert;
    // Different refined cells already prove different orbits; only same-cell pairs need the test.
    return cells[d] === cells[v] && sameOrbit(g, v, d) ? cert : null;
  };

  function* grow(k: number, edges: number): Generator<number[] | null> {
    if (k === n) {
      yield nb.slice();
      return;
    }
    const seen = new Set<string>();
    const room = Math.min(maxDeg, maxEdges - edges - (n - k - 1));
    for (const S of subsets(k, room)) {
      if (++work % 2048 === 0) yield null;
      const size = popcount(S);
      let ok = true;
      for (let s = 0; s < k && ok; s++) {
        if (!(S & (1 << s))) continue;
        if (deg[s] >= maxDeg) ok = false;
        else if (lim.noTriangles && nb[s] & S) ok = false;
        else if (lim.noFourCycles) {
          // Two chosen neighbours with a common neighbour close a 4-cycle through the new vertex.
          for (let t = s + 1; t < k && ok; t++) if (S & (1 << t) && nb[s] & nb[t]) ok = false;
        }
      }
      if (!ok) continue;
      nb[k] = S;
      deg[k] = size;
      for (let s = 0; s < k; s++) if (S & (1 << s)) { nb[s] |= 1 << k; deg[s]++; }
      if (degreesFit(k + 1)) {
        const cert = accepted(k + 1);
        if (cert !== null && !seen.has(cert)) {
          seen.add(cert);
          yield* grow(k + 1, edges + size);
        }
      }
      for (let s = 0; s < k; s++) if (S & (1 << s)) { nb[s] &= ~(1 << k); deg[s]--; }
      nb[k] = 0;
      deg[k] = 0;
    }
  }

  if (atLeast[0] < n) return;
  if (n === 1) {
    yield [0];
    return;
  }
  yield* grow(1, 0);
}
