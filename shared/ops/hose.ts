/** HOSE codes (docs/spec/chem-service.md §2.1 (4)). Chemistry in shared/chem/hose/hose.ts; the task is in hose.tasks.ts. */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, int, smiles, toolkit } from './params.ts';
import { autoDetect } from './auto-detect.ts';

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
      "the smallest rings through the centre atom (`C-3-6;...`). `toolkit=rdkit` runs natprod's port of CDK's " +
      "algorithm on RDKit's aromaticity (equal to CDK 2.8 on the reference set); `toolkit=cdk` asks CDK 2.8's " +
      'HOSECodeGenerator itself, on CDK\'s own reading of the SMILES, as the original does (needs the CDK sidecar).',
    tag: 'chem',
    args: z.object({
      smiles: smiles(),
      auto_detect: autoDetect(),
      spheres: int(undefined, 0, 10, 'Number of spheres (0-10) around each atom'),
      toolkit: toolkit(['rdkit', 'cdk'] as const),
      ringsize: bool(false, 'Include the sizes of the rings through the centre atom in its code'),
    }),
    output: 'application/json',
    answer: z.array(z.string()).describe('One HOSE code per atom, in input order'),
    mode: 'quick',
    task: 'generate_HOSE_codes',
    examples: [{
      query: { smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', spheres: '2' },
      expected: {
        value: [
          'C-4;N(*C*C//)',
          'N-3;*C*CC(=O*C,=O*N,//)',
          'C-3;=O*C*N(,*C*N,*CC//)',
          'O-1;=C(*C*N//)',
          'C-3;*C*C*N(*N*N,=O*N,*CC//)',
          'C-3;*C*N*N(*C*N,*CC,*C//)',
          'N-2;*C*C(*C*N,*N//)',
          'C-3;*N*N(*CC,*C//)',
          'N-3;*C*CC(*C*C,*N,//)',
          'C-4;N(*C*C//)',
          'N-3;*C*CC(*C*N,=O*N,//)',
          'C-4;N(*C*C//)',
          'C-3;=O*N*N(,*CC,*CC//)',
          'O-1;=C(*N*N//)',
        ],
        source: "CDK 2.8 HOSECodeGenerator on RDKit's aromatic bonds, test/fixtures/hose-reference.json (caffeine, 2 spheres)",
      },
    }],
  }),
] as const;
