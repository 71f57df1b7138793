/**
 * Structure generation (docs/spec/chem-service.md §2.4 (28) `generate_structures`; response shape of the later
 * upstream service, §6). A long operation: the HTTP call answers with a job id at once.
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, int } from './params.ts';
import { SPEC } from './examples.ts';
import { count } from './answers.ts';

/** Largest heavy-atom cap a caller may ask for; the default cap is the original service's 10. */
export const MAX_HEAVY_ATOMS_LIMIT = 14;

export const structgenOps = [
  defineOp({
    name: 'generate_structures',
    method: 'GET',
    path: '/tools/generate-structures',
    summary: 'Generates structures using the chemical structure generator',
    description:
      'Enumerates every constitutional isomer (connected molecular graph; no stereo) of a molecular formula exactly ' +
      'once, with our own generator (canonical augmentation, as surge). Valences: C 4, N 3, O 2, S 2, P 3, B 3, ' +
      'F/Cl/Br/I 1; higher valences (N 5, S 4/6, P 5) are not generated. The defaults reproduce the original ' +
      "service's surge call `-P -T -B1,2,3,4,5,7,9 -t0 -f0` (planar, no triple bonds, surge's bad-substructure " +
      'classes 1-5, 7 and 9, no 3-rings, no 4-cycles), so C6H6 gives fulvene and benzene; each restriction can be ' +
      'switched off. Kekule structures of one aromatic system that are not symmetry-related count as different ' +
      'graphs (surge without -R), so `structures` may repeat an aromatic canonical SMILES. Answer: ' +
      '`{total_count, generated_count, structures, settings, formula, limit_applied}`, structures as RDKit ' +
      `canonical SMILES capped by \`limit\`. Formulas with more heavy atoms than \`max_heavy_atoms\` (default 10, ` +
      `at most ${MAX_HEAVY_ATOMS_LIMIT}) are refused with 422.`,
    tag: 'tools',
    args: z.object({
      molecular_formula: z.string().min(1).max(200).describe('Molecular formula, e.g. C6H6 or C4H10O'),
      limit: int(1000, 1, 100_000, 'Most structures to return (all are counted)'),
      max_heavy_atoms: int(10, 1, MAX_HEAVY_ATOMS_LIMIT, `Refuse formulas with more heavy (non-H) atoms (at most ${MAX_HEAVY_ATOMS_LIMIT})`),
      planar: bool(true, 'Only planar skeletons (surge -P)'),
      allow_triple_bonds: bool(false, 'Allow triple bonds (surge without -T)'),
      bad_substructures: z.string().max(40).default('1,2,3,4,5,7,9')
        .describe("surge -B classes to avoid, comma-separated 1-9; '' or 'none' for none"),
      allow_3_rings: bool(false, 'Allow rings of length 3 (surge without -t0)'),
      allow_4_cycles: bool(false, 'Allow cycles of length 4 (surge without -f0)'),
    }),
    output: 'application/json',
    // The job's result (structgen.tasks.ts, generateStructures).
    answer: z.strictObject({
      total_count: count(),
      generated_count: count(),
      structures: z.array(z.string()).describe('RDKit canonical SMILES, at most `limit`'),
      settings: z.record(z.string(), z.string()).describe('The surge options applied (e.g. "-P"), each with what it means'),
      formula: z.string(),
      limit_applied: z.boolean(),
    }),
    mode: 'long',
    task: 'generate_structures',
    // surge's two C6H6 structures under the default restrictions (spec: C=C1C=CC=C1 and C1=CC=CC=C1),
    // written as RDKit canonical SMILES (native RDKit 2022.09.3), in any order.
    examples: [{
      query: { molecular_formula: 'C6H6' },
      expected: {
        value: { $fields: { total_count: 2, generated_count: 2, structures: { $unordered: ['C=C1C=CC=C1', 'c1ccccc1'] }, formula: 'C6H6', limit_applied: false } },
        source: SPEC('§2.4 (28)'),
      },
    }],
  }),
] as const;
