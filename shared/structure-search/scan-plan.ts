/**
 * How SearchService cuts a full scan into row ranges, and how it ranks the hits of a full substructure
 * scan by Tanimoto to the query (`order: 'similarity'`, COCONUT's order; api/catalog/coconut-search).
 * A first page is scanned otherwise: board.ts.
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
