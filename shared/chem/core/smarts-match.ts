/**
 * A SMARTS matcher in JavaScript over the molecule graph of MinimalLib's JSON (match-graph.ts),
 * for the fixed queries of the descriptors. A MinimalLib substructure call costs microseconds
 * of setup however small the query, and the one call that gives RDKit's descriptors,
 * `get_descriptors()`, computes some forty of them (path-based connectivity indices included)
 * when the COCONUT set needs twelve. The queries here are read once per thread and matched in
 * a few hundred nanoseconds each.
 *
 * Semantics are RDKit's (its SMARTS documentation and Code/GraphMol/SmilesParse): `H` is the
 * total hydrogen count, `h` the implicit one, `D` the explicit degree, `X` the total degree,
 * `v` the total valence, `R` the number of SSSR rings holding the atom, `r` the smallest of
 * them, `x` the number of ring bonds; an unwritten bond is single or aromatic; `-` `=` `#` never
 * match an aromatic bond. Chirality is ignored, as RDKit's default matching does. The reader is
 * smarts-query.ts; what it does not read throws when the query is compiled.
 */
import type { MatchGraph } from './match-graph.ts';
import { parseSmarts, SmartsError, type AtomPred, type Query } from './smarts-query.ts';

export type { Query } from './smarts-query.ts';

/** `$(...)`: asked of many atoms by the enclosing query, so answered once per atom and molecule. */
const recursive = (smarts: string): AtomPred => {
  const inner = compileSmarts(smarts);
  return (g, i) => {
    let memo = g.memo.get(inner);
    if (!memo) g.memo.set(inner, (memo = new Int8Array(g.n)));
    if (memo[i] === 0) memo[i] = matchesAt(inner, g, i) ? 1 : -1;
    return memo[i] === 1;
  };
};

const cache = new Map<string, Query | null>();

/** The compiled query of a SMARTS (kept per thread: the callers' SMARTS are fixed tables). */
export function compileSmarts(smarts: string): Query {
  const q = tryCompileSmarts(smarts);
  if (!q) return parseSmarts(smarts, recursive); // throws the reason
  return q;
}

/** The compiled query, or undefined when the SMARTS uses syntax not read here (remembered). */
export function tryCompileSmarts(smarts: string): Query | undefined {
  let q = cache.get(smarts);
  if (q === undefined) {
    try {
      q = parseSmarts(smarts, recursive);
    } catch (e) {
      if (!(e instanceof SmartsError)) throw e;
      q = null;
    }
    if (cache.size < 4096) cache.set(smarts, q);
  }
  return q ?? undefined;
}

/** True when the query matches anywhere in the molecule. */
export function hasMatch(q: Query, g: MatchGraph): boolean {
  for (let i = 0; i < g.n; i++) if (matchesAt(q, g, i)) return true;
  return false;
}

/** The bond joining atoms a and b, or -1. */
function bondBetween(g: MatchGraph, a: number, b: number): number {
  const nb = g.nbrs[a];
  for (let k = 0; k < nb.length; k++) if (nb[k] === b) return g.nbrBonds[a][k];
  return -1;
}

/**
 * Extends a partial match (query atoms below k placed in `map`) in every way; calls `found`
 * for each complete match and stops when it returns true.
 */
function extend(q: Query, g: MatchGraph, map: Int32Array, used: Uint8Array, k: number, found: () => boolean): boolean {
  if (k === q.atoms.length) return found();
  if (q.parent[k] < 0) {
    // The first atom of another component: any atom not in use.
    for (let c = 0; c < g.n; c++) {
      if (used[c] || !q.atoms[k](g, c)) continue;
      map[k] = c;
      used[c] = 1;
      const stop = extend(q, g, map, used, k + 1, found);
      used[c] = 0;
      if (stop) return true;
    }
    return false;
  }
  const from = map[q.parent[k]];
  const nb = g.nbrs[from], bonds = g.nbrBonds[from];
  for (let j = 0; j < nb.length; j++) {
    const c = nb[j];
    if (used[c] || !q.bond[k](g, bonds[j]) || !q.atoms[k](g, c)) continue;
    let closes = true;
    for (const cl of q.closures) {
      if (cl.b !== k) continue;
      const b = bondBetween(g, map[cl.a], c);
      if (b < 0 || !cl.pred(g, b)) {
        closes = false;
        break;
      }
    }
    if (!closes) continue;
    map[k] = c;
    used[c] = 1;
    const stop = extend(q, g, map, used, k + 1, found);
    used[c] = 0;
    if (stop) return true;
  }
  return false;
}

function rooted(q: Query, g: MatchGraph, atom: number, found: (map: Int32Array) => boolean): boolean {
  if (!q.atoms[0](g, atom)) return false;
  if (q.used.length < g.n) q.used = new Uint8Array(Math.max(g.n, 2 * q.used.length));
  const { map, used } = q;
  map[0] = atom;
  used[atom] = 1;
  const stop = extend(q, g, map, used, 1, () => found(map));
  used[atom] = 0;
  return stop;
}

/** True when the query has a match whose first atom is `atom`. */
export function matchesAt(q: Query, g: MatchGraph, atom: number): boolean {
  return q.atoms.length === 1 ? q.atoms[0](g, atom) : rooted(q, g, atom, () => true);
}

/** The number of matches with distinct atom sets (RDKit's uniquified SubstructMatch count). */
export function countUniqueMatches(q: Query, g: MatchGraph): number {
  if (q.atoms.length === 1) {
    let n = 0;
    for (let i = 0; i < g.n; i++) if (q.atoms[0](g, i)) n++;
    return n;
  }
  const seen = new Set<number | string>();
  const key = q.atoms.length === 2
    ? (map: Int32Array) => (map[0] < map[1] ? map[0] * g.n + map[1] : map[1] * g.n + map[0])
    : (map: Int32Array) => Array.from(map).sort((x, y) => x - y).join(',');
  for (let i = 0; i < g.n; i++) {
    rooted(q, g, i, (map) => {
      seen.add(key(map));
      return false;
    });
  }
  return seen.size;
}
