/**
 * THE operation registry: every chemistry operation, in the order of the seed's tool table
 * (chem, convert, depict, tools). REST routes, MCP tools, the OpenAPI document and worker
 * dispatch are all derived from this list; nothing else lists the operations.
 *
 * This module imports no chemistry (the api process never loads RDKit); the task
 * implementations are gathered in `tasks.ts`, which only worker threads import.
 */
import type { OpDef } from './types.ts';
import { descriptorsOps } from './descriptors.ts';
import { classifyOps } from './classify.ts';
import { convertOps } from './convert.ts';
import { convertMoreOps } from './convert-more.ts';
import { extdbOps } from './extdb.ts';
import { fragmentsOps } from './fragments.ts';
import { hoseOps } from './hose.ts';
import { pdfOps } from './pdf.ts';
import { selfiesOps } from './selfies.ts';
import { similarityOps } from './similarity.ts';
import { standardizeOps } from './standardize.ts';
import { stereoOps } from './stereo.ts';
import { structgenOps } from './structgen.ts';
import { tautomerOps } from './tautomer.ts';
import { sugarsOps } from './sugars.ts';
import { depict3dOps } from './depict3d.ts';
import { depictEnhancedOps } from './depict-enhanced.ts';
import { ocsrOps } from './ocsr.ts';

const all = [
  ...stereoOps,
  ...descriptorsOps,
  ...hoseOps,
  ...standardizeOps,
  ...similarityOps,
  ...classifyOps,
  ...fragmentsOps,
  ...tautomerOps,
  ...extdbOps,
  ...convertOps,
  ...convertMoreOps,
  ...depict3dOps,
  ...depictEnhancedOps,
  ...selfiesOps,
  ...structgenOps,
  ...sugarsOps,
  ...pdfOps,
  ...ocsrOps,
] as const;

/** Every registered operation, with its schema and task-name types (see OpTasks). */
export type RegisteredOp = (typeof all)[number];

/** Order in tools/list and /docs: by router (chem, convert, depict, tools, ocsr), then path. */
const ROUTER_ORDER = ['/chem', '/convert', '/depict', '/tools', '/ocsr'];
const routerRank = (op: OpDef) => ROUTER_ORDER.findIndex((r) => op.path.startsWith(`${r}/`));

const declared: readonly OpDef[] = all;
export const OPERATIONS: readonly OpDef[] = Object.freeze(
  [...declared].sort((a, b) => routerRank(a) - routerRank(b) || declared.indexOf(a) - declared.indexOf(b)),
);

export const OPERATIONS_BY_NAME: ReadonlyMap<string, OpDef> = new Map(OPERATIONS.map((op) => [op.name, op]));

// Duplicate names or routes are programming errors: fail at import, not at the first request.
{
  const routes = new Set<string>();
  for (const op of OPERATIONS) {
    const key = `${op.method} ${op.path}`;
    if (routes.has(key)) throw new Error(`Operation registry: two operations on ${key}`);
    routes.add(key);
  }
  if (OPERATIONS_BY_NAME.size !== OPERATIONS.length) throw new Error('Operation registry: duplicate tool names');
}
