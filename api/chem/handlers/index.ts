/**
 * The api-side handlers of the registry, by operation name: one per operation flagged
 * `handler: 'api'` (shared/ops/<family>.ts), one file per family here, each exporting its table. `executeOp`
 * (api/chem/execute.ts) looks the handler up by name. The table is checked at compile time: a
 * missing, extra or misnamed handler, or one expecting other arguments than its operation's
 * schema gives, fails `ApiHandlers` (api/chem/context.ts).
 */
import type { RegisteredOp } from '../../../shared/ops/index.ts';
import type { OpDef } from '../../../shared/ops/types.ts';
import type { ApiHandler, ApiHandlers } from '../context.ts';
import { classifyHandlers } from './classify.ts';
import { convertHandlers } from './convert.ts';
import { convertMoreHandlers } from './convert-more.ts';
import { extdbHandlers } from './extdb.ts';

/** Every family's table (a new api-side operation in an existing family is added there, not here). */
export const API_HANDLERS = {
  ...convertHandlers,
  ...convertMoreHandlers,
  ...extdbHandlers,
  ...classifyHandlers,
} satisfies ApiHandlers<readonly RegisteredOp[]>;

const byName: ReadonlyMap<string, ApiHandler> = new Map(Object.entries(API_HANDLERS) as [string, ApiHandler][]);

/** The api-side handler of `op` (flagged `handler: 'api'`); a flagged operation without one is a programming error. */
export function apiHandlerOf(op: OpDef): ApiHandler | undefined {
  if (op.handler !== 'api') return undefined;
  const handler = byName.get(op.name);
  if (!handler) throw new Error(`Operation ${op.name} is flagged handler: 'api' but has no entry in API_HANDLERS`);
  return handler;
}
