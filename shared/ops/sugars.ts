/**
 * Registry entries for the Sugar Removal Utility (docs/spec/chem-service.md §2.4 tools 29-32; Schaub et al.,
 * J Cheminform 2020, 12:67). The tunable SRU settings are the later upstream query parameters
 * (docs/spec/chem-service.md §6); their defaults are those the MCP-era service used, so a call without them answers
 * as that service did. Tasks are in sugars.tasks.ts.
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, int, num, smiles } from './params.ts';
import { NATIVE_RDKIT, PICEIN, SPEC } from './examples.ts';
import { AGLYCONE_AND_SUGARS, AGLYCONE_AND_SUGAR_INDICES } from './answers-chem311.ts';
import { autoDetect } from './auto-detect.ts';

// Picein less its glucose is piceol (4-hydroxyacetophenone, PubChem CID 7469), here as RDKit canonical Kekulé SMILES.
const PICEOL = { value: 'CC(=O)C1=CC=C(O)C=C1', source: `hydrolysis of picein gives piceol (PubChem CID 7469), written by ${NATIVE_RDKIT}` };

const glyBond = (dflt: boolean) =>
  bool(dflt, 'Detect circular sugars only when they carry an exocyclic O-glycosidic (ether or ester) oxygen; a lone sugar ring is exempt');

const circular = (glyDefault: boolean) => ({
  gly_bond: glyBond(glyDefault),
  oxygen_atoms: bool(true, 'Circular sugars need enough exocyclic oxygen atoms (see oxygen_atoms_threshold)'),
  oxygen_atoms_threshold: num(0.5, 0, 1, 'Minimum ratio of exocyclic oxygen atoms to ring atoms for a circular sugar'),
  spiro_sugars: bool(false, 'Also detect sugar rings that share one (spiro) atom with another ring; that atom is kept'),
  keto_sugars: bool(false, 'Also detect sugar rings whose ring carbons carry an exocyclic keto group (C=O)'),
});

const linear = {
  linear_sugars_in_rings: bool(false, 'Also detect linear sugars whose atoms are part of rings (e.g. macrocycles)'),
  linear_sugars_min_size: int(4, 1, 100, 'Minimum carbon atom count of a linear sugar (inclusive)'),
  linear_sugars_max_size: int(7, 1, 100, 'Maximum carbon atom count of a linear sugar (inclusive)'),
  linear_acidic_sugars: bool(false, 'Also detect linear acidic sugars (sugar acids)'),
};

const removal = {
  only_terminal: bool(true, 'Remove only terminal sugars, whose removal leaves one connected structure'),
  preservation_mode: int(2, 1, 3, 'How disconnected fragments are judged worth keeping: 1 = all, 2 = heavy-atom count, 3 = molecular weight'),
  preservation_threshold: int(5, 0, 1_000_000, 'Fragments below this many heavy atoms (mode 2) or Dalton (mode 3) are discarded'),
  mark_attach_points: bool(false, 'Mark where a sugar was attached with a * atom'),
};

const NOTE =
  'Sugar Removal Utility (Schaub et al., J Cheminform 2020, 12:67) re-implemented on RDKit. ' +
  'The remaining structure is an RDKit canonical Kekulé SMILES (the original service wrote CDK canonical SMILES). ';

// Kept in step with sugarInfoMessage in shared/chem/sugars/sugars.ts.
const SUGAR_INFO = [
  'The molecule contains Linear and Circular sugars',
  'The molecule contains only Linear sugar',
  'The molecule contains only Circular sugar',
  'The molecule contains no sugar',
] as const;
/** The removal operations' answer: what is left, or the original's "No ... found" text. */
const REMAINDER = z.string().describe('The remaining structure (RDKit canonical Kekulé SMILES), or the "No ... found" text');

/** The glycoside of the original's test of /tools/get-aglycone-and-sugar-indices (CM 3.11 tests/test_tools.py). */
const GLYCOSIDE_311 =
  'CCCCC/C=C/C=C/[C@@H](O)C/C=C/C=C/C(=O)OC1C(O)[C@H](C2=C(O)C=C(O)C=C2CO)O[C@H](CO)[C@H]1O[C@@H]1OC(CO)[C@H](O)[C@H](O)C1O[C@@H]1OC(CO)[C@H](O)[C@H](O)C1O';

const extraction = {
  extract_circular_sugars: bool(true, 'Extract circular sugars'),
  extract_linear_sugars: bool(false, 'Extract linear sugars'),
  ...circular(false),
  ...linear,
  ...removal,
  post_process_sugars: bool(false, 'Split the extracted sugar moieties at the O-glycosidic (ether), ester and peroxide bonds that join them'),
  limit_post_process_by_size: bool(false, 'Split only parts larger than the preservation threshold (with post_process_sugars)'),
};

const EXTRACTION =
  'Extraction after CDK\'s SugarDetectionUtility (CM 3.11): the aglycone is what the removal of the asked kinds keeps, ' +
  'the sugars the rest, split into connected moieties; a sugar C6 or a carboxy carbon cut off by the removal goes back to ' +
  'its sugar, and a heteroatom on a broken bond to carbon (the glycosidic O) is in both parts. Circular sugars need no ' +
  'O-glycosidic bond by default here (gly_bond false). post_process_sugars splits the sugar part into its units at esters, ' +
  'peroxides and O-glycosidic bonds from a ring carbon (circular; linear: esters, cross-linking ethers, ethers, peroxides), ' +
  'the connecting O of an ester or ether copied to both units (the copy is a new atom, so its index is listed once). ' +
  'Without sugars the answer is the whole molecule alone; an aglycone with nothing left is "" (SMILES) or [] (indices).';

export const sugarsOps = [
  defineOp({
    name: 'get_sugar_information',
    method: 'GET',
    path: '/tools/sugars-info',
    summary: 'Get information whether a given molecule has circular or linear sugars',
    description: NOTE + 'Answers one of "The molecule contains Linear and Circular sugars", "The molecule contains only ' +
      'Linear sugar", "The molecule contains only Circular sugar", "The molecule contains no sugar".',
    tag: 'tools',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect(), ...circular(false), ...linear }),
    output: 'application/json',
    answer: z.enum(SUGAR_INFO),
    mode: 'quick',
    task: 'get_sugar_information',
    examples: [{
      query: { smiles: PICEIN },
      expected: { value: 'The molecule contains only Circular sugar', source: `${SPEC('§2.4 (29)')} (wording); picein is one glucopyranoside and no open-chain sugar` },
    }],
  }),
  defineOp({
    name: 'remove_linear_sugars',
    method: 'GET',
    path: '/tools/remove-linear-sugars',
    summary: 'Detect and remove linear sugars',
    description: NOTE + 'Answers "No Linear sugar found" when there is none; 422 when the molecule consists only of sugar and nothing would be left.',
    tag: 'tools',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect(), ...linear, ...removal }),
    output: 'application/json',
    answer: REMAINDER,
    mode: 'quick',
    task: 'remove_linear_sugars',
    examples: [{
      query: { smiles: 'OCC(O)C(O)C(O)C(O)C1OC(CO)C(O)C(O)C1O' },
      expected: { value: 'OCC1OCC(O)C(O)C1O', source: `${SPEC('§2.4 (30)')} (C(C1C(C(C(CO1)O)O)O)O), written as RDKit canonical Kekulé SMILES by ${NATIVE_RDKIT}` },
    }],
  }),
  defineOp({
    name: 'remove_circular_sugars',
    method: 'GET',
    path: '/tools/remove-circular-sugars',
    summary: 'Detect and remove circular sugars',
    description: NOTE + 'Removes circular sugars (by default only O-glycosidically bound ones, as the original service did; ' +
      'presence is tested without that requirement). Answers "No Circular sugars found" when there is none; 422 when the molecule ' +
      'consists only of sugar and nothing would be left.',
    tag: 'tools',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect(), ...circular(true), ...removal }),
    output: 'application/json',
    answer: REMAINDER,
    mode: 'quick',
    task: 'remove_circular_sugars',
    examples: [{ query: { smiles: PICEIN }, expected: PICEOL }],
  }),
  defineOp({
    name: 'remove_linear_and_circular_sugars',
    method: 'GET',
    path: '/tools/remove-sugars',
    summary: 'Detect and remove linear and circular sugars',
    description: NOTE + 'Removes circular (by default only O-glycosidically bound) and linear sugars in alternating ' +
      'rounds. Answers "No Linear or Circular sugars found" when there is none; 422 when the molecule consists only of sugar and nothing would be left.',
    tag: 'tools',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect(), ...circular(true), ...linear, ...removal }),
    output: 'application/json',
    answer: REMAINDER,
    mode: 'quick',
    task: 'remove_linear_and_circular_sugars',
    examples: [{ query: { smiles: PICEIN }, expected: PICEOL }],
  }),
  defineOp({
    name: 'extract_aglycone_and_sugars',
    method: 'GET',
    path: '/tools/extract-aglycone-and-sugars',
    summary: 'Extract the aglycone and the sugar moieties of a molecule as SMILES; the aglycone comes first',
    description: NOTE + EXTRACTION,
    tag: 'tools',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect(), ...extraction }),
    output: 'application/json',
    answer: AGLYCONE_AND_SUGARS,
    mode: 'quick',
    task: 'extract_aglycone_and_sugars',
    examples: [{
      query: { smiles: PICEIN },
      expected: {
        value: [PICEOL.value, 'OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O'],
        source: `picein is piceol 4-O-beta-D-glucopyranoside: piceol (PubChem CID 7469) and beta-D-glucopyranose (the glycosidic O on both sides), written by ${NATIVE_RDKIT}`,
      },
    }],
  }),
  defineOp({
    name: 'get_aglycone_and_sugar_indices',
    method: 'GET',
    path: '/tools/get-aglycone-and-sugar-indices',
    summary: 'Get the atom indices of the aglycone and of the sugar moieties of a molecule',
    description: EXTRACTION + ' Indices are those of the input SMILES\' atoms as RDKit reads them (explicit [H] atoms are not counted).',
    tag: 'tools',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect(), ...extraction }),
    output: 'application/json',
    answer: AGLYCONE_AND_SUGAR_INDICES,
    mode: 'quick',
    task: 'get_aglycone_and_sugar_indices',
    examples: [{
      query: { smiles: GLYCOSIDE_311 },
      expected: {
        value: [Array.from({ length: 39 }, (_, i) => i), Array.from({ length: 23 }, (_, i) => 38 + i)],
        source: "the original's tests/test_tools.py (test_get_aglycone_and_sugar_indices)",
      },
    }],
  }),
] as const;
