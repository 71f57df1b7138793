/** Worker tasks of the structure clean-up family; see structure.ts for the registry entries. */
import { withMol } from '../chem/core/rdkit.ts';
import { standardizeTautomerSmiles } from '../chem/tautomer/tautomer.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { tautomerOps } from './tautomer.ts';

export const tautomerTasks = {
  standardize_tautomer: (args: { smiles: string }, ctx: TaskContext) =>
    withMol(ctx.rdkit, args.smiles, (mol) => standardizeTautomerSmiles(ctx.rdkit, mol, ctx.signal)),
} satisfies OpTasks<typeof tautomerOps>;
