/**
 * Ertl functional groups (docs/spec/chem-service.md §2.1 (13); the seed names the tool with the neutral word
 * "fragment": generate_fragment_functional_groups, GET /chem/fragmentfunctionalgroup).
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { smiles } from './params.ts';
import { autoDetect } from './auto-detect.ts';

export const fragmentsOps = [
  defineOp({
    name: 'generate_fragment_functional_groups',
    method: 'GET',
    path: '/chem/fragmentfunctionalgroup',
    summary: 'using the algorithm proposed by Peter Ertl to identify functional groups',
    description:
      "Functional groups by Ertl's algorithm (J. Cheminform. 2017, 9:36) as RDKit Contrib IFG implements it: " +
      'heteroatoms and four kinds of carbon are marked, connected marked atoms merged, and each group described ' +
      'by the SMILES of its atoms and of its atoms plus attached carbons (its generalised type). Answer: a JSON ' +
      'array of `[atomIds, atoms, type]` (atom indices in input order, ascending), groups ordered by their first ' +
      'atom, e.g. caffeine `[[1], "n", "cn(C)c"]`; `[{"None": "No fragments found"}]` when there is none.',
    tag: 'chem',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect() }),
    output: 'application/json',
    answer: z.union([
      z.array(z.tuple([z.array(z.int().min(0)), z.string(), z.string()])).describe('[atomIds, atoms, type] per group'),
      z.tuple([z.strictObject({ None: z.literal('No fragments found') })]).describe('No functional group'),
    ]),
    mode: 'quick',
    task: 'generate_fragment_functional_groups',
    examples: [{
      // A chalcone from LOTUS: an aryl methyl ether, two phenols and an enone.
      query: { smiles: 'COc1cc(O)cc(O)c1C(=O)C=Cc1ccccc1' },
      expected: {
        value: [[[1], 'O', 'cOC'], [[5], 'O', 'cO'], [[8], 'O', 'cO'], [[10, 11, 12, 13], 'C=CC=O', 'cC=CC(c)=O']],
        source: 'RDKit Contrib IFG (Ertl 2017), native RDKit 2022.09.3: test/fixtures/ifg-reference.json',
      },
    }],
  }),
] as const;
