/**
 * Fingerprint similarity (docs/spec/chem-service.md §2.1 (8); the seed's neutral tool name `generate_bitsimilarity_similarity`).
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { int, toolkit } from './params.ts';
import { NATIVE_RDKIT } from './examples.ts';

// Kept in step with FINGERPRINTERS in shared/chem/similarity/similarity.ts (registry files import no chemistry).
const FINGERPRINTERS = ['ECFP', 'RDKit', 'Atompairs', 'MACCS'] as const;

export const similarityOps = [
  defineOp({
    name: 'generate_bitsimilarity_similarity',
    method: 'GET',
    path: '/chem/bitsimilarity',
    summary: 'Generates the Tanimoto similarity index for a given list of SMILES strings',
    description:
      'Tanimoto similarity of bit fingerprints. Two molecules give one number; three or more give the ' +
      'full matrix (a JSON array of rows, in input order, computed with the requested fingerprint; the ' +
      'original service answered an HTML table built with default settings). ECFP is a Morgan bit vector ' +
      'with chirality whose Morgan radius is floor(radius / 2): `radius` is the ECFP diameter, so the ' +
      'default 2 means ECFP2. RDKit and Atompairs use `nBits`; MACCS is always 167 bits. `toolkit=cdk`: ' +
      "CDK's CircularFingerprinter ECFP2, ECFP4 or ECFP6 (`radius` 2, 4 or 6) of `nBits` bits, each value rounded " +
      'to 5 decimals, as the original (ECFP only: no CDK PubChem fingerprint, no MAPC). At most 500 molecules per call.',
    tag: 'chem',
    args: z.object({
      smiles: z.string().min(1).max(100_000).describe('Comma-separated SMILES, at least two'),
      toolkit: toolkit(['rdkit', 'cdk'] as const),
      fingerprinter: z.enum(FINGERPRINTERS).default('ECFP').describe(`Fingerprint: ${FINGERPRINTERS.join(', ')}`),
      nBits: int(2048, 8, 16384, 'Fingerprint length in bits (not used by MACCS)'),
      radius: int(2, 0, 12, 'ECFP diameter: the Morgan radius is floor(radius / 2)'),
    }),
    output: 'application/json',
    // Tanimoto values are Python floats in the original: `1.0` for identical fingerprints.
    floats: true,
    answer: z.union([
      z.number().describe('Two molecules: their Tanimoto similarity'),
      z.array(z.array(z.number())).describe('Three or more: the full matrix, rows in input order'),
    ]),
    mode: 'quick',
    task: 'generate_bitsimilarity_similarity',
    examples: [{
      query: { smiles: 'CCO,CCN' },
      expected: { value: 0.3333333333333333, source: `${NATIVE_RDKIT}: Morgan bit vectors, radius 1 (ECFP diameter 2), 2048 bits, chirality; Tanimoto` },
    }],
  }),
] as const;
