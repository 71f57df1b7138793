/**
 * How SearchService cuts a scan into row ranges, and how it ranks the hits of a full substructure
 * scan by Tanimoto to the query (`order: 'similarity'`, COCONUT's order; api/catalog/coconut-search).
 */
import type { SubstructureResult } from './scan.ts';
import type { SearchAnswer, SearchArgs } from './contract.ts';

/** Every substructure hit of a full scan, by Tanimoto to the query (best first, ties by id). */
export function rankBySimilarity(done: SubstructureResult[], exclude: Set<number>, args: SearchArgs, molecules: number): SearchAnswer {
  const results = done.map((d) => ({ ids: d.ids, scores: d.scores! }));
  const scanned = done.reduce((sum, d) => sum + d.screened, 0);
  const candidates = done.reduce((sum, d) => sum + d.candidates, 0);
  return rankedPage(results, exclude, args, { scanned, candidates, molecules });
}

/** The page `args` asks for of scored hits (best first, ties by id), leaving out `exclude`. */
export function rankedPage(results: { ids: number[]; scores: number[] }[], exclude: Set<number>, args: SearchArgs, stats: SearchAnswer['stats']): SearchAnswer {
  const hits: [number, number][] = [];
  for (const r of results) r.ids.forEach((id, i) => exclude.has(id) || hits.push([id, r.scores[i]]));
  hits.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const page = args.limit ? hits.slice(args.offset, args.offset + args.limit) : hits.slice(args.offset);
  return { ids: page.map((h) => h[0]), scores: page.map((h) => h[1]), total: hits.length, more: args.offset + page.length < hits.length, stats };
}

/** [from, to) ranges splitting n rows into about `parts` pieces. */
export function split(n: number, parts: number): [number, number][] {
  const k = Math.max(1, Math.min(parts, n));
  const size = Math.ceil(n / k);
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += size) out.push([from, Math.min(n, from + size)]);
  return out;
}

/**
 * Ranges for a scan that ends at its first hits (a page without a total): `lanes` ranges of
 * `first` rows, then `lanes` of twice as many, and so on up to `largest` rows a range. A common
 * query fills its page in the first small ranges (little matched in vain beside it); a rare one
 * soon runs in large ranges (few tasks to pay for).
 */
export function growingRanges(n: number, first: number, lanes: number, largest: number): [number, number][] {
  const out: [number, number][] = [];
  let size = Math.max(1, Math.min(first, largest));
  for (let from = 0, k = 0; from < n; k++) {
    out.push([from, Math.min(n, from + size)]);
    from += size;
    if ((k + 1) % lanes === 0) size = Math.min(largest, size * 2);
  }
  return out;
}

/**
 * After a range of a first-page scan finished: the last range the page still needs (the ranges
 * after it may stop), or undefined while that is not known. `hits` holds each finished range's
 * hit count by place (undefined: not finished). A range that alone found `need` hits makes every
 * later one useless; so do the ranges after those finished in order once they hold `need`.
 */
export function lastRangeNeeded(hits: readonly (number | undefined)[], i: number, need: number): number | undefined {
  const last = hits[i]! >= need ? i : undefined;
  let sum = 0;
  for (let k = 0; k < hits.length && hits[k] !== undefined; k++) {
    sum += hits[k]!;
    if (sum >= need) return last === undefined ? k : Math.min(last, k);
  }
  return last;
}
