/**
 * Answer shapes (`OpDef.answer`) that more than one family's operations share: the COCONUT
 * descriptor set (generate_descriptors, generate_multiple_descriptors, the descriptors of
 * generate_collection_preprocessing) and a ChEMBL checker issue (check_errors and the
 * pre-processing's `errors`). A family's own shapes stay beside its operations. Like the rest of
 * the registry, this imports no chemistry: each shape is kept in step with the code that
 * produces it (named at each), and test/api/chem-http.test.ts validates every example's answer.
 */
import { z } from 'zod';

/** An integer count or index. */
export const count = () => z.int().min(0);

/**
 * The COCONUT descriptor set, 23 keys (shared/chem/descriptors/descriptors.ts, coconutDescriptors;
 * with `toolkit=cdk`, CDK's values merged in shared/toolkits/routes.ts, cdkDescriptors). Where
 * the two toolkits differ, both are allowed: CDK's `alogp` may be null and its QED is the
 * string "None" (its upstream quirk).
 */
export const COCONUT_DESCRIPTORS = z.strictObject({
  atom_count: count(),
  heavy_atom_count: count(),
  molecular_weight: z.number(),
  exact_molecular_weight: z.number(),
  alogp: z.number().nullable().describe('Crippen logP (null when CDK cannot type an atom)'),
  rotatable_bond_count: count(),
  topological_polar_surface_area: z.number(),
  hydrogen_bond_acceptors: count(),
  hydrogen_bond_donors: count(),
  hydrogen_bond_acceptors_lipinski: count(),
  hydrogen_bond_donors_lipinski: count(),
  lipinski_rule_of_five_violations: count(),
  aromatic_rings_count: count(),
  qed_drug_likeliness: z.union([z.number(), z.literal('None')]).describe('QED; the string "None" with toolkit=cdk'),
  formal_charge: z.int(),
  fractioncsp3: z.number(),
  number_of_minimal_rings: count(),
  van_der_waals_volume: z.number().nullable().describe('Å³; null for an element the method does not cover'),
  linear_sugars: z.boolean(),
  circular_sugars: z.boolean(),
  murcko_framework: z.string().describe('Bemis-Murcko framework SMILES; "None" without rings'),
  nplikeness: z.number(),
  molecular_formula: z.string(),
}).describe('The COCONUT descriptor set');

/** A ChEMBL structure-checker issue, `[penalty, message]` (shared/chem/standardize/checker.ts, Issue). */
export const CHECKER_ISSUE = z.tuple([z.int().min(0), z.string()]).describe('[penalty (2 warning to 7 illegal input), message]');
