/**
 * Answer shapes of the CM 3.11 chem and tools endpoints (issue 42): the detailed filters, radical
 * fixing, descriptors with toolkit=all and the aglycone/sugar extraction. Registry-side like
 * answers.ts: no chemistry imported; each shape is kept in step with the code named at it.
 */
import { z } from 'zod';
import { count } from './answers.ts';

const rule = (properties: z.ZodRawShape) => z.strictObject({
  passes: z.boolean(),
  violations: z.array(z.string()).describe('One sentence per violated criterion'),
  properties: z.strictObject(properties),
  details: z.string().describe('"No violations", or the violations joined by "; "'),
});

const scoreFilter = z.strictObject({
  passes: z.boolean(),
  value: z.number(),
  range: z.string().describe('The range applied, bounds written as Python floats ("0.0-1.0")'),
  details: z.string(),
});

/** shared/chem/filters/detailed.ts, MoleculeFilters; shared/ops/descriptors.tasks.ts, filter_molecules_detailed. */
const FILTERS = z.strictObject({
  pains: z.strictObject({
    contains_pains: z.boolean(),
    family: z.string().nullable().describe('"PAINS filters (family A|B|C)" of the first match, or null'),
    description: z.string().nullable().describe('The matched entry\'s name, capitalised as Python\'s str.capitalize(), or null'),
    passes: z.boolean(),
    details: z.string(),
  }).optional(),
  lipinski: z.strictObject({
    violations: count(),
    details: z.array(z.string()),
    properties: z.strictObject({ molecular_weight: z.number(), logp: z.number(), hb_acceptors: count(), hb_donors: count() }),
    passes: z.boolean(),
  }).optional(),
  veber: rule({ rotatable_bonds: count(), tpsa: z.number() }).optional(),
  reos: rule({
    molecular_weight: z.number(), logp: z.number(), hb_donors: count(), hb_acceptors: count(),
    formal_charge: z.int(), rotatable_bonds: count(), heavy_atoms: count(),
  }).optional(),
  ghose: rule({ molecular_weight: z.number(), logp: z.number(), atom_count: count(), molar_refractivity: z.number() }).optional(),
  rule_of_three: rule({ molecular_weight: z.number(), logp: z.number(), hb_donors: count(), hb_acceptors: count(), rotatable_bonds: count() }).optional(),
  qed: scoreFilter.optional(),
  sa_score: scoreFilter.optional(),
  np_likeness: scoreFilter.optional(),
});

export const DETAILED_FILTERS = z.strictObject({
  total_molecules: count().describe('Non-empty input lines'),
  passing_molecules: count().describe('Entries in results'),
  filter_operator: z.enum(['AND', 'OR']),
  results: z.array(z.union([
    z.strictObject({
      smiles: z.string(),
      valid: z.literal(true),
      filters: FILTERS,
      overall_pass: z.literal(true),
      filter_passes: z.array(z.boolean()).describe('Each enabled filter\'s verdict, in the order of filters'),
    }),
    z.strictObject({
      smiles: z.string(),
      valid: z.literal(false),
      error: z.string(),
      filters: z.strictObject({}),
    }),
  ])).describe('The passing molecules, and the lines that could not be read'),
}).describe('Detailed filter results');

/** shared/chem/standardize/radicals.ts, FixedRadicals. */
export const FIXED_RADICALS = z.strictObject({
  fixed_smiles: z.string().describe('RDKit canonical Kekulé SMILES with the radicals saturated'),
  radicals_detected: count(),
  radicals_fixed: count(),
}).describe('The molecule with its C, N and O radicals fixed');

const pair = <T extends z.ZodType>(rdkit: T, cdk: z.ZodType) => z.tuple([rdkit, cdk]).describe('[RDKit value, CDK value]');

/**
 * toolkit=all (shared/toolkits/routes.ts, allDescriptors; RDKit column: shared/chem/descriptors/all.ts):
 * the original's combined table, each value a [RDKit, CDK] pair.
 */
export const ALL_DESCRIPTORS = z.strictObject({
  'Atom count': pair(count(), count()),
  'Bond count': pair(count(), count().nullable()),
  'Heavy atom count': pair(count(), count()),
  'Molecular weight': pair(z.number(), z.number()),
  'Exact molecular weight': pair(z.number(), z.number()),
  'Calculated LogP': pair(z.number(), z.number().nullable()),
  'Rotatable bond count': pair(count(), count()),
  'Topological polar surface area': pair(z.number(), z.number()),
  'Hydrogen bond acceptors': pair(count(), count()),
  'Hydrogen bond donors': pair(count(), count().nullable()),
  'Hydrogen bond acceptors (Lipinski)': pair(count(), count()),
  'Hydrogen bond donors (Lipinski)': pair(count(), count().nullable()),
  "Lipinski's rule of five violations": pair(count(), count()),
  'Aromatic rings count': pair(count(), count()),
  'QED drug likeliness': pair(z.number(), z.literal('None')),
  'Formal Charge': pair(z.int(), z.int()),
  FractionCSP3: pair(z.number(), z.number()),
  'Number of Minimal Rings': pair(count(), count()),
  'Van der Waals Volume': pair(z.number().nullable(), z.number().nullable()),
}).describe('RDKit and CDK descriptors side by side (toolkit=all)');

/** shared/chem/sugars/extract.ts: the aglycone first, then each sugar moiety. */
export const AGLYCONE_AND_SUGARS = z.array(z.string()).min(1)
  .describe('SMILES of the aglycone (first; "" when nothing is left) and of each extracted sugar moiety');

export const AGLYCONE_AND_SUGAR_INDICES = z.array(z.array(count())).min(1)
  .describe('Input atom indices of the aglycone (first) and of each sugar moiety; a connecting heteroatom is in both');
