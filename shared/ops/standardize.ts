/**
 * Registry entries for the ChEMBL Structure Pipeline family (Bento et al., J Cheminform 2020,
 * 12:51): molblock standardization, the structure checker and collection pre-processing
 * (docs/spec/chem-service.md §2.1 (5), (6), (9)). Chemistry is in shared/chem/standardize*.ts,
 * checker*.ts and preprocess*.ts; the tasks are in standardize.tasks.ts.
 */
import { z } from 'zod';
import { defineOp, type Expected } from './types.ts';
import { bool, smiles } from './params.ts';
import { ACETONE_MOLFILE, NATIVE_RDKIT, SPEC } from './examples.ts';
import { CHECKER_ISSUE, COCONUT_DESCRIPTORS } from './answers.ts';
import { FIXED_RADICALS } from './answers-chem311.ts';
import { autoDetect } from './auto-detect.ts';

const PIPELINE =
  'ChEMBL Structure Pipeline rules re-implemented on RDKit: explicit hydrogens removed (except those carrying ' +
  'stereo), kekulisation, functional-group normalisation (nitro, N-oxide, azide, diazonium, sulfoxide, amide ' +
  'tautomers, alkali alkoxides ...), neutralisation by adding or removing hydrogens (zwitterions with ' +
  'quaternary centres kept), straightened triple bonds and allenes; structures with metals of the ChEMBL ' +
  'exclusion list or more than seven borons are returned unchanged. ';

// Ethanol through the pre-processing: nothing to standardize, no parent to strip, no stereo, no checker
// issue (spec §2.1 (6): CCO has "No Errors Found"); InChI 1.03 from test/fixtures/chembl-pipeline-reference.json.
const ETHANOL_2D: Expected = { $molblock: { atoms: ['C', 'C', 'O'], bonds: [[1, 2, 1], [2, 3, 1]], dim: '2D', lengths: [1.5, 1.5] } };
const NOT_COMPUTED = 'Not computed, enable for computing';
const ethanolRecord = {
  representations: {
    '2D_MOL': ETHANOL_2D, '3D_MOL': NOT_COMPUTED, canonical_smiles: 'CCO', standard_inchi: 'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3',
    standard_inchikey: 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N', Murcko_framework: 'None',
  },
  descriptors: { descriptors: NOT_COMPUTED },
};

// Answer shapes (standardize.tasks.ts; preprocess.ts: PreprocessRecord).
const checked = z.strictObject({
  smi: z.string(),
  messages: z.union([z.array(CHECKER_ISSUE).min(1), z.tuple([z.literal('No Errors Found')])]),
});
const preprocessRecord = z.strictObject({
  representations: z.strictObject({
    '2D_MOL': z.string().describe('V2000 molblock'),
    '3D_MOL': z.string().describe(`3D molblock with hydrogens, or "${NOT_COMPUTED}"`),
    canonical_smiles: z.string(),
    standard_inchi: z.string().nullable(),
    standard_inchikey: z.string().nullable(),
    Murcko_framework: z.string(),
  }),
  descriptors: z.union([COCONUT_DESCRIPTORS, z.strictObject({ descriptors: z.literal(NOT_COMPUTED) })]),
});
const checkedRecord = preprocessRecord.extend({ has_stereo: z.boolean(), has_stereo_defined: z.boolean(), errors: z.array(CHECKER_ISSUE) });

export const standardizeOps = [
  defineOp({
    name: 'standardize_molblock',
    method: 'POST',
    path: '/chem/standardize',
    summary: 'Standardize molblock using the ChEMBL curation pipeline',
    description:
      PIPELINE +
      'The body is one MDL molfile or SD record as text/plain (or JSON {"molblock": ...}). Answers ' +
      '{standardized_mol, canonical_smiles (RDKit canonical Kekulé SMILES), inchi, inchikey} plus every SD data ' +
      'field of the input record.',
    tag: 'chem',
    args: z.object({
      molblock: z.string().min(1, 'The molblock must not be empty').max(1_000_000).describe('MDL molfile (V2000 or V3000) or one SD record'),
    }),
    body: { kind: 'text', field: 'molblock' },
    output: 'application/json',
    answer: z
      .object({ standardized_mol: z.string().describe('V2000 molblock'), canonical_smiles: z.string(), inchi: z.string(), inchikey: z.string() })
      .catchall(z.union([z.string(), z.number()]).describe("An SD data field of the input record (numeric text as a number)")),
    mode: 'quick',
    task: 'standardize_molblock',
    examples: [{
      query: {},
      text: ACETONE_MOLFILE,
      expected: {
        value: {
          standardized_mol: { $molblock: { atoms: ['C', 'C', 'C', 'O'], bonds: [[1, 2, 1], [2, 3, 1], [2, 4, 2]], dim: '2D' } },
          canonical_smiles: 'CC(C)=O',
          inchi: 'InChI=1S/C3H6O/c1-3(2)4/h1-2H3',
          inchikey: 'CSCPPACGZOOCGX-UHFFFAOYSA-N',
        },
        source: `${SPEC('§2.1 (5)')} (acetone molfile); the pipeline leaves acetone's connection table as drawn`,
      },
    }],
  }),
  defineOp({
    name: 'check_errors',
    method: 'GET',
    path: '/chem/errors',
    summary: 'Check a given SMILES string and the represented structure for issues and standardize it',
    description:
      'ChEMBL structure checker: each issue as [penalty, message] (penalty 2 warnings to 7 illegal input), ' +
      'e.g. [2, "InChI: Omitted undefined stereo"]; {"smi", "messages": ["No Errors Found"]} when there is none. ' +
      'With fix=true and issues found, the structure is also standardized (ChEMBL pipeline) and checked again: ' +
      '{"original": {"smi", "messages"}, "standardized": {"smi", "messages"}}.',
    tag: 'chem',
    args: z.object({
      smiles: smiles('SMILES string to check (read without sanitisation, as drawn)'),
      auto_detect: autoDetect(),
      fix: bool(false, 'Standardize the structure when issues are found and check it again'),
    }),
    output: 'application/json',
    answer: z.union([checked, z.strictObject({ original: checked, standardized: checked })]),
    mode: 'quick',
    task: 'check_errors',
    examples: [{ query: { smiles: 'CCO' }, expected: { value: { smi: 'CCO', messages: ['No Errors Found'] }, source: SPEC('§2.1 (6)') } }],
  }),
  defineOp({
    name: 'generate_collection_preprocessing',
    method: 'GET',
    path: '/chem/collection/pre-processing',
    summary: 'Generates an Input JSON file with information for the catalog',
    description:
      'The submitted structure ("original"), its ChEMBL-standardized form ("standardized") and its ChEMBL ' +
      'parent without salts and solvents, neutralised and without stereo ("parent"), each with representations ' +
      '{2D_MOL, 3D_MOL, canonical_smiles (Kekulé), standard_inchi, standard_inchikey, Murcko_framework} and ' +
      'descriptors; original and standardized also with has_stereo (stereo elements present), has_stereo_defined ' +
      '(a configured centre) and errors (ChEMBL checker issues). 3D molblocks (with hydrogens) and the COCONUT ' +
      'descriptor set are computed only when requested.',
    tag: 'chem',
    args: z.object({
      smiles: smiles(),
      auto_detect: autoDetect(),
      _3d_mol: bool(false, 'Also compute 3D molblocks (with hydrogens) for the three structures'),
      descriptors: bool(false, 'Also compute the COCONUT descriptor set for the three structures'),
    }),
    output: 'application/json',
    answer: z.strictObject({ original: checkedRecord, standardized: checkedRecord, parent: preprocessRecord }),
    mode: 'quick',
    task: 'generate_collection_preprocessing',
    examples: [{
      query: { smiles: 'CCO' },
      expected: {
        value: {
          original: { ...ethanolRecord, has_stereo: false, has_stereo_defined: false, errors: [] },
          standardized: { ...ethanolRecord, has_stereo: false, has_stereo_defined: false, errors: [] },
          parent: ethanolRecord,
        },
        source: `${SPEC('§2.1 (9)')} (shape, "Not computed" texts, "None" framework); values ${NATIVE_RDKIT}`,
      },
    }],
  }),
  defineOp({
    name: 'fix_radicals',
    method: 'GET',
    path: '/chem/fixRadicals',
    summary: 'Fix radicals (single electrons) in molecules',
    description:
      'Saturates radicals as the original service does with CDK (CM 3.11): neutral, non-aromatic C, N and O atoms whose ' +
      'valence (hydrogens plus bond orders) is short of 4, 3 and 2 get one radical electron each (a carbon with valence 2 ' +
      'and an oxygen with valence 0 two), and every electron becomes one more hydrogen, the atom then filled to its plain ' +
      'valence. Radicals on other elements or on charged or aromatic atoms are neither counted nor fixed. Answers ' +
      'fixed_smiles (RDKit canonical Kekulé SMILES; the original wrote CDK\'s), radicals_detected and radicals_fixed.',
    tag: 'chem',
    args: z.object({ smiles: smiles('SMILES string containing radicals to be fixed'), auto_detect: autoDetect() }),
    output: 'application/json',
    answer: FIXED_RADICALS,
    mode: 'quick',
    task: 'fix_radicals',
    examples: [
      {
        query: { smiles: '[CH3]' },
        expected: { value: { fixed_smiles: 'C', radicals_detected: 1, radicals_fixed: 1 }, source: "the original's tests/test_fix_radicals.py (methyl radical)" },
      },
      {
        query: { smiles: 'CC[CH2]' },
        expected: { value: { fixed_smiles: 'CCC', radicals_detected: 1, radicals_fixed: 1 }, source: "the original's tests/test_fix_radicals.py (propyl radical)" },
      },
    ],
  }),
] as const;
