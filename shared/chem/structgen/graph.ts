/**
 * Simple-graph properties the structure generator filters on. Graphs are small (at most ~30
 * vertices) and given as neighbour bitmasks, `nb[v]` = set of neighbours of v.
 */

export const popcount = (x: number): number => {
  let c = 0;
  for (let y = x; y; y &= y - 1) c++;
  return c;
};

const lowBit = (x: number): number => 31 - Math.clz32(x & -x);

/** Is the graph on vertices `alive` (bitmask) connected? */
export function connected(nb: number[], alive: number): boolean {
  if (alive === 0) return true;
  let seen = alive & -alive;
  let frontier = seen;
  while (frontier) {
    const v = lowBit(frontier);
    frontier &= frontier - 1;
    const fresh = nb[v] & alive & ~seen;
    seen |= fresh;
    frontier |= fresh;
  }
  return seen === alive;
}

/** Vertices whose removal leaves the (connected) graph connected. */
export function nonCutVertices(nb: number[], n: number): number[] {
  const all = n >= 31 ? -1 >>> 0 : (1 << n) - 1;
  const out: number[] = [];
  for (let v = 0; v < n; v++) if (connected(nb, all & ~(1 << v))) out.push(v);
  return out;
}

/**
 * Rings in surge's sense: induced (chordless) cycles, each as its list of edges `[a, b]`. Found
 * by extending paths from their smallest vertex; each cycle is met twice (two directions) and
 * kept once.
 */
export function inducedCycles(nb: number[], n: number, maxLength = n): number[][][] {
  const rings: number[][][] = [];
  const path: number[] = [];
  const extend = (start: number, v: number, used: number) => {
    let next = nb[v] & ~used;
    while (next) {
      const w = lowBit(next);
      next &= next - 1;
      if (w < start) continue;
      // A chord from w to an inner path vertex would make the cycle non-induced.
      const inner = used & ~(1 << start) & ~(1 << v);
      if (nb[w] & inner) continue;
      path.push(w);
      if (path.length === 2) extend(start, w, used | (1 << w));
      else if (nb[w] & (1 << start)) {
        // Closing edge back to start; record each cycle in one direction only.
        if (path[1] < w) rings.push(path.map((a, i) => [a, path[(i + 1) % path.length]]));
      } else if (path.length < maxLength) extend(start, w, used | (1 << w));
      path.pop();
    }
  };
  for (let s = 0; s < n; s++) {
    path.push(s);
    extend(s, s, 1 << s);
    path.pop();
  }
  return rings;
}

/** Number of triangles and of 4-cycles (any, chorded or not), as surge's -t and -f count them. */
export function smallCycleCounts(nb: number[], n: number): { three: number; four: number } {
  let three = 0;
  let four = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const common = popcount(nb[a] & nb[b]);
      four += (common * (common - 1)) / 2;
      if (nb[a] & (1 << b)) three += common;
    }
  }
  // Each triangle is seen from its 3 edges; each 4-cycle from its 2 diagonals.
  return { three: three / 3, four: four / 2 };
}

/** surge -B7: a K_{3,3} or a K_{2,4} subgraph. */
export function hasK33orK24(nb: number[], n: number): boolean {
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const ab = nb[a] & nb[b];
      if (popcount(ab) >= 4) return true;
      if (popcount(ab) < 3) continue;
      for (let c = b + 1; c < n; c++) if (popcount(ab & nb[c]) >= 3) return true;
    }
  }
  return false;
}

/** surge -B8: a vertex whose neighbours contain a 4-vertex path, or a K4 with a 3-edge ear. */
export function hasConeP4orEaredK4(nb: number[], n: number): boolean {
  for (let x = 0; x < n; x++) {
    const nx = nb[x];
    // Path a-b-c-d inside N(x): middle edge b-c, then a in N(b), d in N(c), all distinct.
    for (let b = 0; b < n; b++) {
      if (!(nx & (1 << b))) continue;
      for (let c = 0; c < n; c++) {
        if (c === b || !(nx & (1 << c)) || !(nb[b] & (1 << c))) continue;
        const as = nb[b] & nx & ~(1 << c);
        const ds = nb[c] & nx & ~(1 << b);
        if (as && ds && (popcount(as) > 1 || popcount(ds) > 1 || as !== ds)) return true;
      }
    }
  }
  for (let x = 0; x < n; x++) {
    for (let y = x + 1; y < n; y++) {
      if (!(nb[x] & (1 << y))) continue;
      let common = nb[x] & nb[y];
      while (common) {
        const a = lowBit(common);
        common &= common - 1;
        let bs = common & nb[a];
        while (bs) {
          const b = lowBit(bs);
          bs &= bs - 1;
          const k4 = (1 << x) | (1 << y) | (1 << a) | (1 << b);
          let is = nb[x] & ~k4;
          while (is) {
            const i = lowBit(is);
            is &= is - 1;
            if (nb[i] & nb[y] & ~k4 & ~(1 << i)) return true;
          }
        }
      }
    }
  }
  return false;
}

/** surge -B9: an atom lying on two different cycles of length 3 or 4. */
export function atomOnTwoSmallRings(nb: number[], n: number): boolean {
  const seen = new Set<number>();
  let covered = 0;
  const add = (set: number, key = set) => {
    if (seen.has(key)) return false;
    seen.add(key);
    if (covered & set) return true;
    covered |= set;
    return false;
  };
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let common = nb[a] & nb[b];
      const adjacent = (nb[a] >> b) & 1;
      const list: number[] = [];
      while (common) { list.push(lowBit(common)); common &= common - 1; }
      for (const c of list) if (adjacent && add((1 << a) | (1 << b) | (1 << c))) return true;
      // Two common neighbours of a non-adjacent or adjacent pair close a 4-cycle a-c-b-d.
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const four = (1 << a) | (1 << b) | (1 << list[i]) | (1 << list[j]);
          if (add(four, four + 2 ** 31)) return true;
        }
      }
    }
  }
  return false;
}
