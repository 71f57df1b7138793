/**
 * Planarity of a small simple graph (surge -P), by the Demoucron-Malgrange-Pertuiset
 * face-embedding algorithm on each biconnected block: a graph is planar exactly when all of its
 * blocks are. DMP grows an embedding from a cycle, always placing a fragment that fits into only
 * one face first; a fragment that fits no face proves non-planarity. Quadratic, which is nothing
 * at the sizes the generator handles.
 */
import { popcount } from './graph.ts';

export function isPlanar(nb: number[], n: number): boolean {
  let m = 0;
  for (let v = 0; v < n; v++) m += popcount(nb[v]);
  m /= 2;
  if (n <= 4 || m <= 8) return true; // K5 and K3,3 need 10 and 9 edges
  if (m > 3 * n - 6) return false;
  return blocks(nb, n).every((edges) => edges.length < 9 || planarBlock(edges));
}

/** Biconnected blocks as edge lists (Hopcroft-Tarjan with an edge stack). */
function blocks(nb: number[], n: number): [number, number][][] {
  const disc = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const stack: [number, number][] = [];
  const out: [number, number][][] = [];
  let time = 0;
  const visit = (v: number, parent: number) => {
    disc[v] = low[v] = time++;
    for (let w = 0; w < n; w++) {
      if (!(nb[v] & (1 << w)) || w === parent) continue;
      if (disc[w] < 0) {
        stack.push([v, w]);
        visit(w, v);
        low[v] = Math.min(low[v], low[w]);
        if (low[w] >= disc[v]) {
          const block: [number, number][] = [];
          let e: [number, number];
          do { e = stack.pop()!; block.push(e); } while (e[0] !== v || e[1] !== w);
          out.push(block);
        }
      } else if (disc[w] < disc[v]) {
        stack.push([v, w]);
        low[v] = Math.min(low[v], disc[w]);
      }
    }
  };
  for (let v = 0; v < n; v++) if (disc[v] < 0) visit(v, -1);
  return out;
}

function planarBlock(edges: [number, number][]): boolean {
  const adj = new Map<number, Set<number>>();
  for (const [a, b] of edges) {
    if (!adj.has(a)) adj.set(a, new Set());
    if (!adj.has(b)) adj.set(b, new Set());
    adj.get(a)!.add(b);
    adj.get(b)!.add(a);
  }
  const key = (a: number, b: number) => (a < b ? a * 64 + b : b * 64 + a);
  const placedV = new Set<number>();
  const placedE = new Set<number>();
  let faces: number[][];
  {
    const cycle = findCycle(adj);
    for (let i = 0; i < cycle.length; i++) {
      placedV.add(cycle[i]);
      placedE.add(key(cycle[i], cycle[(i + 1) % cycle.length]));
    }
    faces = [cycle, [...cycle]];
  }
  while (placedE.size < edges.length) {
    const fragments = findFragments(adj, placedV, placedE, key);
    let choice: { path: number[]; face: number } | undefined;
    for (const f of fragments) {
      const fits = faces.map((face, i) => (f.attach.every((a) => face.includes(a)) ? i : -1)).filter((i) => i >= 0);
      if (fits.length === 0) return false;
      if (fits.length === 1 || !choice) choice = { path: f.path, face: fits[0] };
      if (fits.length === 1) break;
    }
    const { path, face } = choice!;
    const f = faces[face];
    const i = f.indexOf(path[0]);
    const j = f.indexOf(path[path.length - 1]);
    const arc = (from: number, to: number) => {
      const out = [f[from]];
      for (let k = from; k !== to; ) { k = (k + 1) % f.length; out.push(f[k]); }
      return out;
    };
    const inner = path.slice(1, -1);
    faces.splice(face, 1, [...arc(i, j), ...[...inner].reverse()], [...arc(j, i), ...inner]);
    for (let k = 0; k < path.length; k++) {
      placedV.add(path[k]);
      if (k > 0) placedE.add(key(path[k - 1], path[k]));
    }
  }
  return true;
}

function findCycle(adj: Map<number, Set<number>>): number[] {
  const start = adj.keys().next().value as number;
  const parent = new Map<number, number>([[start, -1]]);
  const order = [start];
  // DFS until an edge reaches an already-seen vertex other than the parent.
  const stack = [start];
  while (stack.length) {
    const v = stack.pop()!;
    for (const w of adj.get(v)!) {
      if (w === parent.get(v)) continue;
      if (parent.has(w)) {
        // Cycle: v back up the tree to the common ancestor with w.
        const up = (x: number) => { const p: number[] = []; for (let y = x; y !== -1; y = parent.get(y)!) p.push(y); return p; };
        const pv = up(v);
        const pw = up(w);
        const common = pv.find((x) => pw.includes(x))!;
        return [...pv.slice(0, pv.indexOf(common) + 1), ...pw.slice(0, pw.indexOf(common)).reverse()];
      }
      parent.set(w, v);
      order.push(w);
      stack.push(w);
    }
  }
  throw new Error('block without a cycle');
}

interface Fragment { attach: number[]; path: number[] }

function findFragments(adj: Map<number, Set<number>>, placedV: Set<number>, placedE: Set<number>, key: (a: number, b: number) => number): Fragment[] {
  const out: Fragment[] = [];
  for (const [a, ns] of adj) {
    if (!placedV.has(a)) continue;
    for (const b of ns) if (a < b && placedV.has(b) && !placedE.has(key(a, b))) out.push({ attach: [a, b], path: [a, b] });
  }
  const seen = new Set<number>();
  for (const v of adj.keys()) {
    if (placedV.has(v) || seen.has(v)) continue;
    const comp = new Set([v]);
    const queue = [v];
    const attach = new Set<number>();
    while (queue.length) {
      const x = queue.pop()!;
      for (const y of adj.get(x)!) {
        if (placedV.has(y)) attach.add(y);
        else if (!comp.has(y)) { comp.add(y); queue.push(y); }
      }
    }
    for (const x of comp) seen.add(x);
    const [a1, a2] = [...attach];
    // Path a1 -> (through the component) -> a2, by BFS inside the component.
    const prev = new Map<number, number>();
    const q: number[] = [];
    for (const y of adj.get(a1)!) if (comp.has(y)) { prev.set(y, a1); q.push(y); }
    let end = -1;
    while (q.length && end < 0) {
      const x = q.shift()!;
      if (adj.get(x)!.has(a2)) { end = x; break; }
      for (const y of adj.get(x)!) if (comp.has(y) && !prev.has(y)) { prev.set(y, x); q.push(y); }
    }
    const path = [a2];
    for (let x = end; x !== a1; x = prev.get(x)!) path.push(x);
    path.push(a1);
    out.push({ attach: [...attach], path: path.reverse() });
  }
  return out;
}
