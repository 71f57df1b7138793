/**
 * How SearchService cuts a scan into row ranges, and how it ranks the hits of a full substructure
 * scan by Tanimoto to the query (`order: 'similarity'`, COCONUT's order; api/catalog/coconut-search).
 */
import type { SubstructureResult } from '../../shared/chem/catalog/search-scan.ts';
import type { SearchAnswer, SearchArgs } from './service.ts';

/** Every substructure hit of a full scan, by Tanimoto to the query (best first, ties by id). */
export function rankBySimilarity(done: SubstructureResult[], exclude: Set<number>, args: SearchArgs, molecules: number): SearchAnswer {
  const hits: [number, number][] = [];
  let candidates = 0;
  let scanned = 0;
  for (const d of done) {
    d.ids.forEach((id, i) => exclude.has(id) || hits.push([id, d.scores![i]]));
    candidates += d.candidates;
    scanned += d.screened;
  }
  hits.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const page = args.limit ? hits.slice(args.offset, args.offset + args.limit) : hits.slice(args.offset);
  return {
    ids: page.map((h) => h[0]),
    scores: page.map((h) => h[1]),
    total: hits.length,
    more: args.offset + page.length < hits.length,
    stats: { scanned, candidates, molecules },
  };
}

/** [from, to) ranges splitting n rows into about `parts` pieces. */
export function split(n: number, parts: number): [number, number][] {
  const k = Math.max(1, Math.min(parts, n));
  const size = Math.ceil(n / k);
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += size) out.push([from, Math.min(n, from + size)]);
  return out;
}
