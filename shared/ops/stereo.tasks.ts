/** Worker tasks of the stereo family; see stereo.ts for the registry entry. */
import { enumerateStereoisomers } from '../chem/stereo/stereoisomers.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { stereoOps } from './stereo.ts';

export const stereoTasks = {
  enumerate_stereoisomers: (args: { smiles: string; max_isomers: number }, ctx: TaskContext) => {
    const r = enumerateStereoisomers(ctx.rdkit, args.smiles, args.max_isomers, ctx.signal);
    // The normal answer stays the upstream array; a cut is reported explicitly, never silently.
    if (!r.truncated) return r.isomers;
    return { isomers: r.isomers, truncated: true, max_isomers: args.max_isomers, stereo_elements: r.elements };
  },
} satisfies OpTasks<typeof stereoOps>;
