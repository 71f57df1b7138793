/** Worker task for Ertl functional groups; see fgroups.ts for the registry entry. */
import { functionalGroups } from '../chem/fragments/ifg.ts';
import { withMol } from '../chem/core/rdkit.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { fragmentsOps } from './fragments.ts';

export const fragmentsTasks = {
  generate_fragment_functional_groups: (args: { smiles: string }, ctx: TaskContext) => {
    const groups = withMol(ctx.rdkit, args.smiles, (mol) => functionalGroups(ctx.rdkit, mol, ctx.signal));
    // The upstream answer for a molecule without groups, kept for client compatibility.
    return groups.length ? groups : [{ None: 'No fragments found' }];
  },
} satisfies OpTasks<typeof fragmentsOps>;
