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

export const sugarsOps = [
  defineOp({
    name: 'get_sugar_information',
    method: 'GET',
    path: '/tools/sugars-info',
    summary: 'Get information whether a given molecule has circular or linear sugars',
    description: NOTE + 'Answers one of "The molecule contains Linear and Circular sugars", "The molecule contains only ' +
      'Linear sugar", "The molecule contains only Circular sugar", "The molecule contains no sugar".',
    tag: 'tools',
    args: z.object({ smiles: smiles(), ...circular(false), ...linear }),
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
    args: z.object({ smiles: smiles(), ...linear, ...removal }),
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
    args: z.object({ smiles: smiles(), ...circular(true), ...removal }),
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
    args: z.object({ smiles: smiles(), ...circular(true), ...linear, ...removal }),
    output: 'application/json',
    answer: REMAINDER,
    mode: 'quick',
    task: 'remove_linear_and_circular_sugars',
    examples: [{ query: { smiles: PICEIN }, expected: PICEOL }],
  }),
] as const;
