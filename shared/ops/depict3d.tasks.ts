/** Worker tasks for 3D coordinates and the 3D viewer page; see threed.ts for the registry entries. */
import { generate3D } from '../chem/convert/conformer.ts';
import { viewerPage } from '../chem/depict/depict3d.ts';
import { normaliseSmiles } from '../chem/core/rdkit.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { depict3dOps } from './depict3d.ts';

export const depict3dTasks = {
  generate_3d_coordinates: (args: { smiles: string }, ctx: TaskContext) =>
    generate3D(ctx.rdkit, args.smiles, { hydrogens: false, signal: ctx.signal }),
  depict_3d_molecule_depict_3D_get: (args: { smiles: string }, ctx: TaskContext) => {
    const molblock = generate3D(ctx.rdkit, args.smiles, { hydrogens: true, signal: ctx.signal });
    return viewerPage(molblock, normaliseSmiles(args.smiles));
  },
} satisfies OpTasks<typeof depict3dOps>;
