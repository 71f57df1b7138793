/**
 * What the api-side handlers of the registry (operations flagged `handler: 'api'`,
 * api/chem/handlers/) receive and read. These types belong to the api process alone: the
 * registry (shared/ops/types.ts) only carries the flag, and the worker processes never see them.
 */
import type { z } from 'zod';
import type { Config } from '../../shared/config.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import type { OpDef } from '../../shared/ops/types.ts';

/** A catalog record as the api-side handlers read it. */
export type CatalogDoc = { id: number; [field: string]: unknown };

/**
 * The catalog reads api-side handlers make: molecules by exact field values. The catalog's store
 * (api/catalog/store/types.ts) satisfies it; the handlers and the name resolver (api/names/) depend
 * on this narrow port rather than on the store's own types, and their tests pass small fakes.
 */
export interface CatalogReader {
  find(coll: 'molecules', filter: Record<string, unknown>, opts?: { limit?: number; fields?: string[] }): Promise<CatalogDoc[]>;
  findOne(coll: 'molecules', filter: Record<string, unknown>): Promise<CatalogDoc | null>;
}

/** What an api-side handler may use. */
export interface ApiContext {
  runner: JobRunner;
  /** The process's configuration, read once by its entry (api/server.ts, api/mcp/stdio.ts). */
  config: Config;
  store?: CatalogReader;
  /** Absolute base of this service as the client sees it, e.g. `http://host:8000`, for status URLs. */
  baseUrl: string;
  /** Prefix the request came in under (`/latest`, `/v1` or ''), so answers link back consistently. */
  prefix: string;
}

/** An api-side handler as `executeOp` calls it: by name, with arguments already validated. */
export type ApiHandler = (args: Record<string, unknown>, ctx: ApiContext) => Promise<unknown>;

/**
 * The api-side handlers of the registry: exactly one per operation flagged `handler: 'api'`, keyed
 * by the operation's name and receiving its validated arguments (`z.output` of its schema). The
 * table (api/chem/handlers/index.ts) is declared `{...} satisfies ApiHandlers<readonly RegisteredOp[]>`,
 * so a missing, extra or misnamed handler, or one expecting other arguments, is a compile error.
 */
export type ApiHandlers<Ops extends readonly OpDef<any, string, string>[]> = {
  [O in Ops[number] as O extends { handler: 'api' } ? O['name'] : never]: (args: z.output<O['args']>, ctx: ApiContext) => Promise<unknown>;
};
