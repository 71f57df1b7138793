/**
 * The case table: which families the fuzzer draws from, and how often. Case N of a run is drawn
 * from its own generator seeded by (seed, N), so it is reproducible alone.
 */
import { OPERATIONS } from '../../shared/ops/index.ts';
import { Rng } from './prng.ts';
import type { Case, Context } from './types.ts';
import { chemRest, mcpCall, mcpEnvelope, mcpSearchCatalog } from './gen/chem.ts';
import { catalogRead } from './gen/catalog.ts';
import { catalogWrite } from './gen/catalog-writes.ts';
import { knownCase, pdfUpload, rawHttp, type Limits } from './gen/http.ts';

export type Generator = (rng: Rng, ctx: Context, limits: Limits) => Case;

/** Weights: the chemistry operations dominate (34 of them, every parameter); the rest is spread out. */
export const TARGETS: readonly (readonly [number, Generator])[] = [
  [40, (rng) => chemRest(rng)],
  [10, (rng) => mcpCall(rng)],
  [1, (rng) => mcpSearchCatalog(rng)],
  [2, (rng) => mcpEnvelope(rng)],
  [16, (rng, ctx) => catalogRead(rng, ctx)],
  [10, (rng, ctx) => catalogWrite(rng, ctx)],
  [5, (rng, ctx, limits) => rawHttp(rng, ctx, limits)],
  [3, (rng) => pdfUpload(rng)],
  [2, (rng, ctx) => knownCase(rng, ctx)],
];

export function generateCase(seed: number, index: number, ctx: Context, limits: Limits): Case {
  const rng = new Rng(seed, index);
  return rng.weighted(TARGETS)(rng, ctx, limits);
}

export const OPERATION_COUNT = OPERATIONS.length;
