/**
 * Worker task of the external-database lookup (docs/spec/chem-service.md §2.1 (15)); the registry entry and the local
 * catalog shortcut are in extdb.ts. The HTTP client lives in shared/extdb/.
 */
import { inputTypeOf, type InputType } from '../extdb/identifier.ts';
import { lookupSmiles } from '../extdb/pubchem.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { extdbOps } from './extdb.ts';

export interface ExtdbAnswer {
  input: string;
  canonical_smiles: string | null;
  input_type: InputType;
  success: boolean;
}

/** Retries of one request after the first attempt, and the first backoff pause (doubling). */
export const EXTDB_RETRIES = 3;
export const EXTDB_BACKOFF_MS = 500;

/** Longest a lookup can take: every attempt of up to two chained requests times out, plus the pauses. */
export function extdbBudgetMs(timeoutMs: number): number {
  const pauses = EXTDB_BACKOFF_MS * (2 ** EXTDB_RETRIES - 1);
  return 2 * ((EXTDB_RETRIES + 1) * timeoutMs + pauses);
}

export const extdbTasks = {
  async extdb_lookup(args: { identifier: string }, ctx: TaskContext): Promise<ExtdbAnswer> {
    const config = ctx.config;
    const smiles = await lookupSmiles(args.identifier, {
      baseUrl: config.EXTDB_URL,
      timeoutMs: config.EXTDB_TIMEOUT_MS,
      retries: EXTDB_RETRIES,
      backoffMs: EXTDB_BACKOFF_MS,
      signal: ctx.signal,
    });
    return { input: args.identifier, canonical_smiles: smiles, input_type: inputTypeOf(args.identifier), success: smiles !== null };
  },
} satisfies OpTasks<typeof extdbOps>;
