/**
 * What the `catalog_search` task takes and answers: the contract between the structure-search
 * index (service.ts, which registers the task on its pool) and its callers, typed for them in
 * shared/ops/task-types.ts. Nothing of the service is imported here, so the service's helpers
 * (scan-plan.ts) and the task types can use the contract without an import cycle.
 */
import { z } from 'zod';

/** What `catalog_search` takes (validated by the api; checked again by the service, `searchArgs`). */
export interface SearchArgs {
  type: 'substructure' | 'similarity';
  query: string;
  query_type: 'smiles' | 'smarts' | 'auto';
  use_chirality?: boolean;
  threshold?: number;
  /** Hits to skip and to return; `limit` 0 returns every hit (filters inside a catalog search). */
  offset: number;
  limit: number;
  /** Substructure: scan everything to report `total` even when the page is found earlier. */
  count?: boolean;
  /** Ids left out of the hits (the exact matches the api lists first). */
  exclude?: number[];
  /**
   * Substructure: `id` (default) lists hits in id order and may stop early; `similarity` scans
   * every row and lists hits by Tanimoto to the query, best first, ties by id, each with its score
   * (COCONUT's order; the query must be SMILES).
   */
  order?: 'id' | 'similarity';
  /**
   * The shard this call is for (SEARCH_SHARDS > 1, shards.ts): the worker checks that it holds
   * this one. Absent: the whole index, which a worker holding one shard refuses (503).
   */
  shard?: ShardSpec;
}

/** Shard `index` of `of`: the molecules with `id % of == index` (shards.ts). */
export interface ShardSpec {
  index: number;
  of: number;
}

export interface SearchAnswer {
  ids: number[];
  /** Tanimoto of each id (similarity). */
  scores?: number[];
  /** Every hit, when the scan went through all rows; null when it stopped after the page. */
  total: number | null;
  /** Whether hits exist beyond this page. */
  more: boolean;
  /** Rows examined, rows that passed the fingerprint screen, molecules in the index. */
  stats: { scanned: number; candidates: number; molecules: number };
}

/**
 * The service's check of a call's arguments: calls arrive as JSON (from Redis in the distributed
 * mode), so SearchService parses them again before it searches.
 */
export const searchArgs = z.object({
  type: z.enum(['substructure', 'similarity']),
  query: z.string().min(1).max(100_000),
  query_type: z.enum(['smiles', 'smarts', 'auto']),
  use_chirality: z.boolean().optional(),
  threshold: z.number().min(0).max(1).optional(),
  offset: z.number().int().min(0),
  limit: z.number().int().min(0),
  count: z.boolean().optional(),
  exclude: z.array(z.number().int()).max(100_000).optional(),
  order: z.enum(['id', 'similarity']).optional(),
  shard: z.object({ index: z.number().int().min(0), of: z.number().int().min(1) }).optional(),
});
