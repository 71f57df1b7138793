/**
 * SELFIES conversion (docs/spec/chem-service.md §2.2 (23)). The decoder half is exported from the chemistry module
 * for `generate_smiles` (representation=selfies); only the encoder is its own operation.
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { smiles } from './params.ts';
import { autoDetect } from './auto-detect.ts';
import { CAFFEINE, SPEC } from './examples.ts';

export const selfiesOps = [
  defineOp({
    name: 'generate_selfies',
    method: 'GET',
    path: '/convert/selfies',
    summary: 'Generates SELFIES string for a given SMILES string',
    description:
      'SELFIES 2.x string for the SMILES, in the atom and branch order of the input, as the Python ' +
      '`selfies` 2.2 encoder writes it (aromatic input is kekulised first; default semantic constraints, ' +
      'strict). Input that cannot be encoded (unreadable SMILES, failed kekulisation, an atom with more ' +
      'bonds than its SELFIES capacity, `*` atoms) answers 400 with `{detail}` naming the problem, as the original.',
    clientErrors: [400],
    tag: 'convert',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect() }),
    output: 'application/json',
    answer: z.string().describe('SELFIES'),
    mode: 'quick',
    task: 'generate_selfies',
    examples: [{
      query: { smiles: CAFFEINE },
      expected: {
        value: '[C][N][C][=N][C][=C][Ring1][Branch1][C][=Branch1][C][=O][N][Branch1][=Branch2][C][=Branch1][C][=O][N][Ring1][Branch2][C][C]',
        source: SPEC('§2.2 (23)'),
      },
    }],
  }),
] as const;
