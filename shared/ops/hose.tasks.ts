/** Worker task for HOSE codes; see hose.ts for the registry entry. */
import { hoseCodes, hoseGraph } from '../chem/hose/hose.ts';
import { assertStructureSize, normaliseSmiles } from '../chem/core/rdkit.ts';
import { invalidStructure } from '../errors.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { hoseOps } from './hose.ts';

export const hoseTasks = {
  generate_HOSE_codes: (args: { smiles: string; spheres: number; ringsize: boolean }, ctx: TaskContext) => {
    const smiles = normaliseSmiles(args.smiles);
    assertStructureSize(smiles);
    // Explicit [H] atoms must stay atoms (as in CDK), so the molecule is read here rather than
    // through parseMol, which lets RDKit remove them.
    const graph = hoseGraph(ctx.rdkit, smiles);
    if (!graph) throw invalidStructure(smiles);
    return hoseCodes(graph, args.spheres, args.ringsize, ctx.signal);
  },
} satisfies OpTasks<typeof hoseOps>;
