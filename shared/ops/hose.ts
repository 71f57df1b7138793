/** HOSE codes (docs/spec/chem-service.md §2.1 (4)). Chemistry in shared/chem/hose/hose.ts; the task is in hose.tasks.ts. */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, int, smiles, toolkit } from './params.ts';

export const hoseOps = [
  defineOp({
    name: 'generate_HOSE_codes',
    method: 'GET',
    path: '/chem/HOSEcode',
    summary: 'Generates HOSE codes for the input molecules',
    description:
      "HOSE codes (Bremser 1978) in CDK's HOSECodeGenerator syntax and order, e.g. `C-3;*C*CO(*C*C,*CC,C//)`, one " +
      'per atom of the input in SMILES order (every atom, including the last; explicit [H] atoms are kept as CDK ' +
      'keeps them). Aromatic bonds (written `*`) are those RDKit perceives. `ringsize=true` appends the sizes of ' +
      "the smallest rings through the centre atom (`C-3-6;...`). Both toolkit values run the same CDK-compatible " +
      'algorithm; the codes agree exactly with CDK 2.8 on the reference set.',
    tag: 'chem',
    args: z.object({
      smiles: smiles(),
      spheres: int(undefined, 0, 10, 'Number of spheres (0-10) around each atom'),
      toolkit: toolkit(['rdkit', 'cdk'] as const),
      ringsize: bool(false, 'Include the sizes of the rings through the centre atom in its code'),
    }),
    output: 'application/json',
    mode: 'quick',
    task: 'generate_HOSE_codes',
    examples: [{ query: { smiles: 'CCO', spheres: '2' } }],
  }),
] as const;
