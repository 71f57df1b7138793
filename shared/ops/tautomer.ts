/**
 * Structure clean-up family: canonical tautomer (docs/spec/chem-service.md §2.1 (14)).
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { smiles } from './params.ts';
import { autoDetect } from './auto-detect.ts';
import { NATIVE_RDKIT } from './examples.ts';

export const tautomerOps = [
  defineOp({
    name: 'standardize_tautomer',
    method: 'GET',
    path: '/chem/standarizedTautomer',
    summary: 'Standardize tautomeric SMILES with the RDKit tautomer canonicalisation',
    description:
      'Canonical tautomer as RDKit\'s TautomerEnumerator().Canonicalize picks it (RDKit 2022.09 rules ' +
      'and scores: MolVS-derived transforms, at most 1000 tautomers and 1000 matched transforms, stereo ' +
      'removed where a transform moved hydrogens or bonds, highest score wins, ties to the smallest ' +
      'SMILES), returned as canonical isomeric Kekulé SMILES (a JSON string). Unreadable SMILES → 422.',
    tag: 'chem',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect() }),
    output: 'application/json',
    answer: z.string().describe('Canonical tautomer, isomeric Kekulé SMILES'),
    mode: 'quick',
    task: 'standardize_tautomer',
    examples: [{
      query: { smiles: 'Oc1ccccn1' },
      expected: { value: 'O=C1C=CC=CN1', source: `${NATIVE_RDKIT}: TautomerEnumerator().Canonicalize, Kekulé SMILES` },
    }],
  }),
] as const;
