/**
 * Retry and time budget of the external-database lookup, read by both sides: the worker task
 * (shared/ops/extdb.tasks.ts) retries with these values, and the api-side handlers
 * (api/chem/handlers/extdb.ts, api/names/resolve.ts) wait this long for it. Plain values, no
 * chemistry and no HTTP client, so the api imports them without loading either.
 */

/** Retries of one request after the first attempt, and the first backoff pause (doubling). */
export const EXTDB_RETRIES = 3;
export const EXTDB_BACKOFF_MS = 500;

/** Longest a lookup can take: every attempt of up to two chained requests times out, plus the pauses. */
export function extdbBudgetMs(timeoutMs: number): number {
  const pauses = EXTDB_BACKOFF_MS * (2 ** EXTDB_RETRIES - 1);
  return 2 * ((EXTDB_RETRIES + 1) * timeoutMs + pauses);
}

/** Job options of an `extdb_lookup` awaited by the api: the task's limit, and the wait, past the budget. */
export function extdbWait(timeoutMs: number): { timeoutMs: number; waitMs: number } {
  const budget = extdbBudgetMs(timeoutMs);
  return { timeoutMs: budget + 2_000, waitMs: budget + 5_000 };
}
