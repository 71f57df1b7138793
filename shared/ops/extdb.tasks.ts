/**
 * Worker task of the external-database lookup (docs/spec/chem-service.md §2.1 (15)); the registry entry is
 * in extdb.ts, its api-side handler (the local catalog shortcut) in api/chem/handlers/extdb.ts. The
 * HTTP client lives in shared/extdb/, the retry budget both sides read in shared/extdb/budget.ts.
 */
import { z } from 'zod';
import { EXTDB_BACKOFF_MS, EXTDB_RETRIES } from '../extdb/budget.ts';
import { inputTypeOf, type InputType } from '../extdb/identifier.ts';
import { lookupSmiles } from '../extdb/pubchem.ts';
import { internalTask, internalTasks } from './task-args.ts';
import type { OpTasks, TaskTable } from './types.ts';
import type { extdbOps } from './extdb.ts';

export interface ExtdbAnswer {
  input: string;
  canonical_smiles: string | null;
  input_type: InputType;
  success: boolean;
}

/** Submitted by the api-side handler of retrieve_extdb_smiles and by the name resolver (api/names/resolve.ts). */
export const extdbTasks = internalTasks({
  extdb_lookup: internalTask(z.object({ identifier: z.string().max(10_000) }), async (args, ctx): Promise<ExtdbAnswer> => {
    const config = ctx.config;
    const smiles = await lookupSmiles(args.identifier, {
      baseUrl: config.EXTDB_URL,
      timeoutMs: config.EXTDB_TIMEOUT_MS,
      retries: EXTDB_RETRIES,
      backoffMs: EXTDB_BACKOFF_MS,
      signal: ctx.signal,
    });
    return { input: args.identifier, canonical_smiles: smiles, input_type: inputTypeOf(args.identifier), success: smiles !== null };
  }),
}) satisfies OpTasks<typeof extdbOps> & TaskTable;
