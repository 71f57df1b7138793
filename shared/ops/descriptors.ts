/**
 * Registry entries for natural-product analysis: NP-likeness, COCONUT descriptors and the
 * molecule filters. Chemistry lives in shared/chem; the tasks are in analysis.tasks.ts.
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, smiles, toolkit } from './params.ts';
import { CAFFEINE, HORDENINE, NATIVE_RDKIT, SPEC } from './examples.ts';
import { COCONUT_DESCRIPTORS } from './answers.ts';
import { ALL_DESCRIPTORS, DETAILED_FILTERS } from './answers-chem311.ts';
import { autoDetect } from './auto-detect.ts';

// Kept in step with parseRange in shared/chem/filters/filters.ts (registry files import no chemistry).
const RANGE = /^\s*([-+]?\d+(?:\.\d*)?|[-+]?\.\d+)\s*-\s*([-+]?\d+(?:\.\d*)?|[-+]?\.\d+)\s*$/;
const range = (dflt: string, what: string) =>
  z
    .string()
    .refine((v) => v.trim() === '' || RANGE.test(v), 'expected a range "min-max", e.g. "0-10" or "-5-5", or "" for off')
    .default(dflt)
    .describe(`${what} range "min-max" (bounds may be negative, e.g. "-5-5"); an empty string turns the filter off`);

// The COCONUT descriptor objects of two LOTUS natural products, from independent references: native
// RDKit 2022.09.3 descriptors (test/fixtures/descriptors_reference.tsv), CDK 2.8 VABC volumes
// (vdw_volume_reference.tsv) and RDKit Contrib NP-likeness (nplikeness_reference.tsv), rounded as the
// original service rounds them by test/fixtures/tools/registry_examples_reference.py. No ring holds an
// oxygen and no chain carries hydroxy groups: the Sugar Removal Utility finds no sugar.
const DESCRIPTORS_SOURCE = `${NATIVE_RDKIT}, from the descriptor, VABC (CDK 2.8) and NP-likeness reference fixtures`;
const HORDENINE_DESCRIPTORS = {
  atom_count: 27, heavy_atom_count: 12, molecular_weight: 165.24, exact_molecular_weight: 165.11536, alogp: 1.5,
  rotatable_bond_count: 3, topological_polar_surface_area: 23.47, hydrogen_bond_acceptors: 2, hydrogen_bond_donors: 1,
  hydrogen_bond_acceptors_lipinski: 2, hydrogen_bond_donors_lipinski: 1, lipinski_rule_of_five_violations: 0,
  aromatic_rings_count: 1, qed_drug_likeliness: 0.73, formal_charge: 0, fractioncsp3: 0.4, number_of_minimal_rings: 1,
  van_der_waals_volume: 170.14, linear_sugars: false, circular_sugars: false, murcko_framework: 'c1ccccc1',
  nplikeness: 0.09, molecular_formula: 'C10H15NO',
};
const ESTRAGOLE = 'C=CCc1ccc(OC)cc1';
const ESTRAGOLE_DESCRIPTORS = {
  atom_count: 23, heavy_atom_count: 11, molecular_weight: 148.2, exact_molecular_weight: 148.08882, alogp: 2.42,
  rotatable_bond_count: 3, topological_polar_surface_area: 9.23, hydrogen_bond_acceptors: 1, hydrogen_bond_donors: 0,
  hydrogen_bond_acceptors_lipinski: 1, hydrogen_bond_donors_lipinski: 0, lipinski_rule_of_five_violations: 0,
  aromatic_rings_count: 1, qed_drug_likeliness: 0.6, formal_charge: 0, fractioncsp3: 0.2, number_of_minimal_rings: 1,
  van_der_waals_volume: 156.5, linear_sugars: false, circular_sugars: false, murcko_framework: 'c1ccccc1',
  nplikeness: 0.37, molecular_formula: 'C10H12O',
};
// Gallic acid carries a PAINS catechol alert (RDKit FilterCatalog: catechol_A(92)); hordenine none.
const GALLIC_ACID = 'O=C(O)c1cc(O)c(O)c(O)c1';

/** The arguments of both filter operations (their default ranges differ, as the original's). */
const filterArgs = (defaults: { qed: string; nplikeness: string }) =>
  z.object({
    smiles: z
      .union([z.string().min(1).max(1_000_000), z.array(z.string().min(1).max(100_000)).min(1).max(1000)])
      .describe('SMILES, one per line (text body) or a JSON array'),
    pains: bool(true, 'PAINS filter'),
    lipinski: bool(true, "Lipinski's rule of five"),
    veber: bool(true, 'Veber filter'),
    reos: bool(true, 'REOS filter'),
    ghose: bool(true, 'Ghose filter'),
    ruleofthree: bool(true, 'Rule of three'),
    qedscore: range(defaults.qed, 'QED'),
    sascore: range('0-10', 'SA score'),
    nplikeness: range(defaults.nplikeness, 'NP-likeness'),
    filterOperator: z.enum(['AND', 'OR']).default('OR').describe('AND: pass every enabled filter; OR: at least one'),
  });

export const descriptorsOps = [
  defineOp({
    name: 'generate_nplikeness_score',
    method: 'GET',
    path: '/chem/nplikeness/score',
    summary: 'Generates the natural-product likeness score of the input molecule',
    description:
      'Natural-product likeness (Ertl et al. 2008) with the RDKit Contrib public model: mean contribution of the ' +
      "molecule's Morgan radius-2 environments per atom, log-damped beyond ±4, rounded to 2 decimals. " +
      'Typical range -5 (synthetic-like) to +5 (natural-product-like).',
    tag: 'chem',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect() }),
    output: 'application/json',
    answer: z.number().describe('NP-likeness score, 2 decimals'),
    mode: 'quick',
    task: 'generate_nplikeness_score',
    examples: [{ query: { smiles: CAFFEINE }, expected: { value: -1.09, source: `${SPEC('§2.1 (7)')}; also ${NATIVE_RDKIT} (Contrib NP_Score)` } }],
  }),
  defineOp({
    name: 'generate_descriptors',
    method: 'GET',
    path: '/chem/descriptors',
    summary: 'Generates descriptors for the input molecule',
    description:
      'The COCONUT descriptor set with RDKit definitions, 23 keys in fixed order: atom_count (with H), heavy_atom_count, ' +
      'molecular_weight, exact_molecular_weight, alogp (Crippen), rotatable_bond_count, topological_polar_surface_area, ' +
      'hydrogen_bond_acceptors/donors (and the _lipinski pair, computed with the same RDKit functions as upstream), ' +
      'lipinski_rule_of_five_violations, aromatic_rings_count, qed_drug_likeliness (Bickerton 2012, RDKit weights), ' +
      'formal_charge, fractioncsp3, number_of_minimal_rings, van_der_waals_volume (Zhao, Abraham & Zissimos 2003 ' +
      'atom and bond contributions, deterministic; null for elements the method does not cover), linear_sugars, ' +
      'circular_sugars, murcko_framework (RDKit Bemis-Murcko, "None" without rings), nplikeness, molecular_formula. ' +
      '`format=html` answers a readable table instead of JSON. `toolkit=cdk`: the CDK definitions of the original ' +
      '(CDK\'s descriptors, Murcko framework and formula; its upstream quirks kept: donors = acceptors, qed "None"), ' +
      'with the same sugar flags and NP-likeness as rdkit (docs/toolkits.md). `toolkit=all` (CM 3.11): the original\'s ' +
      'combined table, 19 descriptors under readable names ("Atom count", "Bond count", ... "Van der Waals Volume"), each ' +
      'an [RDKit, CDK] pair; CDK\'s bond count and donor counts are null (not in the CDK set natprod runs), and the ' +
      'call needs CDK like toolkit=cdk (422 naming the package without it).',
    tag: 'chem',
    args: z.object({
      smiles: smiles(),
      auto_detect: autoDetect(),
      format: z.enum(['json', 'html']).default('json').describe('Response format: json or html'),
      toolkit: toolkit(['rdkit', 'cdk', 'all'] as const),
    }),
    output: 'application/json',
    // format=json; format=html answers text/html.
    answer: z.union([COCONUT_DESCRIPTORS, ALL_DESCRIPTORS]),
    mode: 'quick',
    task: 'generate_descriptors',
    examples: [{ query: { smiles: HORDENINE }, expected: { value: HORDENINE_DESCRIPTORS, source: DESCRIPTORS_SOURCE } }],
  }),
  defineOp({
    name: 'generate_multiple_descriptors',
    method: 'GET',
    path: '/chem/descriptors/multiple',
    summary: 'Generates descriptors for the input molecules',
    description:
      'The COCONUT descriptor set (see generate_descriptors) for each of at least two comma-separated SMILES, as an ' +
      'object keyed by the (trimmed) input; repeated inputs collapse to one key.',
    tag: 'chem',
    args: z.object({
      smiles: z.string().min(1).max(100_000).describe('Comma-separated SMILES, at least two'),
      toolkit: toolkit(['rdkit', 'cdk'] as const),
    }),
    output: 'application/json',
    answer: z.record(z.string(), COCONUT_DESCRIPTORS).describe('The descriptor set of each input, keyed by the trimmed input SMILES'),
    mode: 'quick',
    task: 'generate_multiple_descriptors',
    examples: [{
      query: { smiles: `${HORDENINE},${ESTRAGOLE}` },
      expected: { value: { [HORDENINE]: HORDENINE_DESCRIPTORS, [ESTRAGOLE]: ESTRAGOLE_DESCRIPTORS }, source: DESCRIPTORS_SOURCE },
    }],
  }),
  defineOp({
    name: 'filter_molecules',
    method: 'POST',
    path: '/chem/all_filters',
    summary: 'Filters a given list of molecules using selected filters',
    description:
      'Evaluates, per molecule and in this order, the enabled filters: PAINS (480 RDKit PAINS A/B/C SMARTS; T = no alert), ' +
      'Lipinski rule of five (T = no violation), Veber (rotatable bonds <= 10, TPSA <= 140), REOS, Ghose, rule of ' +
      'three, QED, SA score (Ertl & Schuffenhauer 2009, 2 decimals) and NP-likeness (2 decimals) within their ranges. ' +
      'T always means the molecule passes that filter. filterOperator AND keeps molecules passing every enabled filter, ' +
      'OR those passing at least one. Answers one line per kept molecule: "<smiles> :  T, F, ...". The body is ' +
      'text/plain with one SMILES per line, or JSON {"smiles": [...]}; at most 1000 molecules.',
    tag: 'chem',
    args: filterArgs({ qed: '0-10', nplikeness: '0-10' }),
    body: { kind: 'text', field: 'smiles' },
    output: 'application/json',
    answer: z.array(z.string()).describe('One line "<smiles> :  T, F, ..." per kept molecule'),
    mode: 'quick',
    task: 'filter_molecules',
    examples: [{
      query: {},
      text: `${HORDENINE}\n${GALLIC_ACID}`,
      expected: {
        value: [`${HORDENINE} :  T, T, T, F, T, T, T, T, T`, `${GALLIC_ACID} :  F, T, T, F, F, F, T, T, T`],
        source: `${NATIVE_RDKIT}: FilterCatalog PAINS, Descriptors, Crippen, QED, Contrib SA_Score and NP_Score, thresholds as described`,
      },
    }],
  }),
  defineOp({
    name: 'filter_molecules_detailed',
    method: 'POST',
    path: '/chem/all_filters_detailed',
    summary: 'Filters molecules with detailed information about violations and substructure matches',
    description:
      'The filters of /chem/all_filters with their details, as the original service (CM 3.11) answers them: per molecule ' +
      'the enabled filters (pains: first PAINS match, its family and description; lipinski: violation count and sentences; ' +
      'veber, reos, ghose, rule_of_three: violations and the property values judged; qed, sa_score, np_likeness: value ' +
      'and range), filter_passes in that order and overall_pass by filterOperator. Only passing molecules are listed, ' +
      'and lines RDKit cannot read as {"valid": false, "error": "Invalid SMILES string"}; total_molecules counts every ' +
      'non-empty line. Ranges may have negative bounds ("-5-5" is the NP-likeness default and is applied; the original ' +
      'split on every "-" and skipped it); "" switches a score filter off. Text body, one SMILES per line, or JSON ' +
      '{"smiles": [...]}; at most 1000 molecules.',
    tag: 'chem',
    args: filterArgs({ qed: '0-1', nplikeness: '-5-5' }),
    body: { kind: 'text', field: 'smiles' },
    output: 'application/json',
    answer: DETAILED_FILTERS,
    mode: 'quick',
    task: 'filter_molecules_detailed',
    examples: [{
      query: { lipinski: 'false', veber: 'false', reos: 'false', ghose: 'false', ruleofthree: 'false', qedscore: '', sascore: '', nplikeness: '' },
      text: `${HORDENINE}\n${GALLIC_ACID}`,
      expected: {
        value: {
          total_molecules: 2,
          passing_molecules: 1,
          filter_operator: 'OR',
          results: [{
            smiles: HORDENINE,
            valid: true,
            filters: { pains: { contains_pains: false, family: null, description: null, passes: true, details: 'No PAINS substructures detected' } },
            overall_pass: true,
            filter_passes: [true],
          }],
        },
        source: `${NATIVE_RDKIT}: FilterCatalog PAINS (gallic acid matches catechol_A(92), hordenine nothing), shaped as the original's all_filters_detailed`,
      },
    }],
  }),
] as const;
