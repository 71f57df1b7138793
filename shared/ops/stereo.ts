/** Stereoisomer enumeration (docs/spec/chem-service.md §2.1 (1)). */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { int, smiles } from './params.ts';
import { autoDetect } from './auto-detect.ts';
import { NATIVE_RDKIT } from './examples.ts';
import { count } from './answers.ts';

export const stereoOps = [
  defineOp({
    name: 'enumerate_stereoisomers',
    method: 'GET',
    path: '/chem/stereoisomers',
    summary: 'Enumerate all possible stereoisomers',
    description:
      'All stereoisomers over the unassigned tetrahedral centres and stereogenic double bonds (assigned ' +
      'ones are kept), unique by canonical isomeric SMILES and sorted lexicographically; returns a JSON ' +
      'array of SMILES. Pseudo-asymmetric and ring-dependent centres are included, so alkane counts ' +
      'match the published ones (native RDKit misses some). At most `max_isomers` (default 1024, as ' +
      "RDKit's default) are returned: when the cap, or the budget of max(4096, 4 x max_isomers) " +
      'configurations tried, cuts the enumeration short, the answer is instead the object ' +
      '`{"isomers": [...], "truncated": true, "max_isomers": n, "stereo_elements": k}`.',
    tag: 'chem',
    args: z.object({
      smiles: smiles(),
      auto_detect: autoDetect(),
      max_isomers: int(1024, 1, 1024, 'Largest number of stereoisomers returned'),
    }),
    output: 'application/json',
    // stereo.tasks.ts: the array, or the object when the enumeration was cut short.
    answer: z.union([
      z.array(z.string()).describe('Isomeric SMILES, sorted'),
      z.strictObject({ isomers: z.array(z.string()), truncated: z.literal(true), max_isomers: count(), stereo_elements: count() }),
    ]),
    mode: 'quick',
    task: 'enumerate_stereoisomers',
    examples: [{
      query: { smiles: 'CC(O)CC' },
      expected: { value: ['CC[C@@H](C)O', 'CC[C@H](C)O'], source: `${NATIVE_RDKIT}: EnumerateStereoisomers, sorted` },
    }],
  }),
] as const;
