/**
 * Canonical form of a small vertex-coloured, edge-labelled graph (at most ~30 vertices) by
 * individualisation and refinement, the scheme nauty uses: refine the colouring to an
 * equitable one, individualise each vertex of the first non-singleton cell in turn, and keep
 * the smallest certificate over all discrete leaves. Two graphs are isomorphic exactly when
 * their certificates are equal, which is what the structure generator's isomorph rejection
 * rests on. Branches are pruned with automorphisms: swaps of twin vertices (same colour, same
 * labelled neighbourhood) and the automorphisms met at equal leaves, restricted to those that
 * fix the individualised prefix, so symmetric skeletons (many methyls, rings) stay cheap.
 */

export interface LabelledGraph {
  n: number;
  /** Vertex colour (element index, or 0 for a bare skeleton). Small non-negative integers. */
  colour: ArrayLike<number>;
  /** n*n symmetric matrix of edge labels; 0 = no edge (bond order otherwise). */
  adj: Uint8Array;
}

/** Ranks of an equitable refinement of `start` (ties broken only by invariant signatures). */
function refine(g: LabelledGraph, start: Ranking): Ranking {
  const { n, adj } = g;
  let cur = start;
  const parts: number[] = [];
  while (cur.classes < n) {
    const cols = cur.ranks;
    const sigs: string[] = new Array(n);
    for (let v = 0; v < n; v++) {
      parts.length = 0;
      for (let u = 0; u < n; u++) {
        const a = adj[v * n + u];
        if (a) parts.push(cols[u] * 8 + a);
      }
      parts.sort((x, y) => x - y);
      sigs[v] = String.fromCharCode(cols[v], ...parts);
    }
    const next = rank(sigs);
    if (next.classes === cur.classes) return next;
    cur = next;
  }
  return cur;
}

interface Ranking { ranks: Int32Array; classes: number }

/** Dense ranks 0..classes-1 of the keys in sorted order. */
function rank(keys: string[]): Ranking {
  const n = keys.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const ranks = new Int32Array(n);
  let c = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && keys[idx[i]] !== keys[idx[i - 1]]) c++;
    ranks[idx[i]] = c;
  }
  return { ranks, classes: n ? c + 1 : 0 };
}

function certificate(g: LabelledGraph, colour: ArrayLike<number>, lab: Int32Array): string {
  const { n, adj } = g;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(colour[lab[i]]);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push(adj[lab[i] * n + lab[j]]);
  return String.fromCharCode(...out);
}

function areTwins(g: LabelledGraph, u: number, v: number): boolean {
  const { n, adj } = g;
  for (let w = 0; w < n; w++) {
    if (w !== u && w !== v && adj[u * n + w] !== adj[v * n + w]) return false;
  }
  return true;
}

export interface Canon {
  /** Equal for two graphs exactly when they are isomorphic (colours and labels respected). */
  cert: string;
  /** lab[i] = the vertex placed at canonical position i. */
  lab: Int32Array;
  /** True when colour refinement alone separates all vertices: the automorphism group is trivial. */
  rigid: boolean;
  /** Cell of each vertex in the refined starting partition; vertices of one orbit share a cell. */
  cells: Int32Array;
}

/**
 * Canonical certificate and labelling. `extra` optionally overrides the starting colours (used to
 * individualise one vertex for orbit tests) and must be invariantly derived from the graph.
 */
export function canonical(g: LabelledGraph, extra?: ArrayLike<number>): Canon {
  const { n } = g;
  const start = rank(Array.from({ length: n }, (_, v) => String.fromCharCode(extra ? extra[v] : g.colour[v])));
  let best: { cert: string; lab: Int32Array } | undefined;
  const autos: Int32Array[] = [];

  let cells: Int32Array = new Int32Array(0);
  const search = (cols: Ranking, prefix: number[]): void => {
    const refined = refine(g, cols);
    if (prefix.length === 0) cells = refined.ranks;
    const c = refined.ranks;
    // Target cell: the non-singleton cell with the smallest rank (an invariant choice).
    const size = new Int32Array(n);
    for (let v = 0; v < n; v++) size[c[v]]++;
    let target = -1;
    for (let r = 0; r < n; r++) if (size[r] > 1) { target = r; break; }
    if (target < 0) {
      const lab = new Int32Array(n);
      for (let v = 0; v < n; v++) lab[c[v]] = v;
      const cert = certificate(g, extra ?? g.colour, lab);
      if (!best || cert < best.cert) best = { cert, lab };
      else if (cert === best.cert) {
        const gamma = new Int32Array(n);
        for (let i = 0; i < n; i++) gamma[best.lab[i]] = lab[i];
        autos.push(gamma);
      }
      return;
    }
    const cell: number[] = [];
    for (let v = 0; v < n; v++) if (c[v] === target) cell.push(v);
    const tried: number[] = [];
    for (const v of cell) {
      if (tried.some((u) => equivalent(g, u, v, prefix, autos))) continue;
      tried.push(v);
      // Individualise v: it keeps rank `target`, the rest of its cell moves just after it.
      const next = Int32Array.from(c, (r, x) => (r > target || (r === target && x !== v) ? r + 1 : r));
      search({ ranks: next, classes: refined.classes + 1 }, [...prefix, v]);
    }
  };
  search(start, []);
  return { ...best!, rigid: new Set(cells).size === n, cells };
}

/** Is v the image of u under a known automorphism that fixes the prefix pointwise? */
function equivalent(g: LabelledGraph, u: number, v: number, prefix: number[], autos: Int32Array[]): boolean {
  if (areTwins(g, u, v)) return true;
  const usable = autos.filter((a) => prefix.every((p) => a[p] === p));
  if (usable.length === 0) return false;
  // Orbit of u under the group generated by the usable automorphisms.
  const seen = new Set([u]);
  const queue = [u];
  while (queue.length) {
    const x = queue.pop()!;
    for (const a of usable) {
      const y = a[x];
      if (y === v) return true;
      if (!seen.has(y)) { seen.add(y); queue.push(y); }
    }
  }
  return false;
}

/** Are vertices a and b in the same automorphism orbit of g? */
export function sameOrbit(g: LabelledGraph, a: number, b: number): boolean {
  if (a === b) return true;
  if (g.colour[a] !== g.colour[b]) return false;
  const mark = (x: number) => Array.from({ length: g.n }, (_, v) => 2 * g.colour[v] + (v === x ? 1 : 0));
  return canonical(g, mark(a)).cert === canonical(g, mark(b)).cert;
}
