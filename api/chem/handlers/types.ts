/** Types of the api-side handler table (api/chem/handlers/index.ts). */
import type { z } from 'zod';
import type { RegisteredOp } from '../../../shared/ops/index.ts';

/** The operations flagged `handler: 'api'`, by name. */
export type ApiSideOp = Extract<RegisteredOp, { handler: 'api' }>;
export type ApiSideOpName = ApiSideOp['name'];

/** What the api-side handler of operation `N` receives: its validated arguments. */
export type HandlerArgs<N extends ApiSideOpName> = z.output<Extract<ApiSideOp, { name: N }>['args']>;
