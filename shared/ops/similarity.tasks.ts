/** Worker tasks of the similarity family; see similarity.ts for the registry entry. */
import { bitSimilarity, type Fingerprinter } from '../chem/similarity/similarity.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { similarityOps } from './similarity.ts';

interface Args { smiles: string; toolkit: 'rdkit' | 'cdk'; fingerprinter: Fingerprinter; nBits: number; radius: number }

export const similarityTasks = {
  // Split on commas only, as the original service does; each item is parsed (and named when
  // unreadable) on its own.
  generate_bitsimilarity_similarity: (args: Args, ctx: TaskContext) =>
    bitSimilarity(ctx.rdkit, args.smiles.split(','), { fingerprinter: args.fingerprinter, nBits: args.nBits, radius: args.radius }),
} satisfies OpTasks<typeof similarityOps>;
