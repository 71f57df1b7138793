/**
 * Registry entry of the identifier-to-SMILES lookup (docs/spec/chem-service.md §2.1 (15); upstream path
 * /chem/pubchem/smiles). Its api-side handler (api/chem/handlers/extdb.ts) answers from the local
 * catalog when a molecule there carries the identifier (COCONUT identifier, name, CAS number or
 * InChIKey) and otherwise runs the internal `extdb_lookup` task (extdb.tasks.ts) against the
 * external compound database (EXTDB_URL).
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { CAFFEINE } from './examples.ts';

const OP = 'retrieve_extdb_smiles';

// Kept in step with InputType in shared/extdb/identifier.ts (registry files import no task code).
const INPUT_TYPES = ['CID', 'InChI', 'InChIKey', 'CAS', 'name'] as const;

export const extdbOps = [
  defineOp({
    name: OP,
    openWorld: true,
    method: 'GET',
    path: '/chem/extdb/smiles',
    summary: 'Resolve a chemical identifier (CID, InChI, InChIKey, CAS, formula, SMILES or name) to SMILES',
    description:
      'Looks in the local catalog first (COCONUT identifier, name, CAS number, InChIKey; answers the stored canonical SMILES), ' +
      'then in the external compound database configured by EXTDB_URL (PubChem PUG-REST by default): digits are CIDs, ' +
      '`InChI=` strings InChIs, 27-character keys InChIKeys, CAS numbers are resolved as names, element-count formulas ' +
      'through fast formula search, short SMILES-like strings as SMILES, anything else as a name. Answers ' +
      '`{input, canonical_smiles, input_type, success}`; an unknown identifier gives `success: false` and ' +
      '`canonical_smiles: null`. Requests time out after EXTDB_TIMEOUT_MS, are retried with exponential backoff on 429/5xx, ' +
      'and an unreachable database answers 503 naming it. Answers are cached per worker thread (LRU, 128 entries).',
    tag: 'chem',
    args: z.object({
      identifier: z.string().max(10_000).describe('Chemical identifier: PubChem CID, InChI, InChIKey, CAS number, formula, SMILES or name'),
    }),
    output: 'application/json',
    // ExtdbAnswer (extdb.tasks.ts), from the catalog or the external database.
    answer: z.strictObject({
      input: z.string(),
      canonical_smiles: z.string().nullable().describe('null when the identifier is unknown'),
      input_type: z.enum(INPUT_TYPES),
      success: z.boolean(),
    }),
    mode: 'quick',
    task: 'extdb_lookup',
    handler: 'api',
    // The tests answer it from a recording of PubChem (test/extdb/fake-pugrest.ts).
    examples: [{
      query: { identifier: 'caffeine' },
      expected: {
        value: { input: 'caffeine', canonical_smiles: CAFFEINE, input_type: 'name', success: true },
        source: 'PubChem PUG-REST: the SMILES property of CID 2519 (caffeine); input_type as the original service labels a name (docs/spec/chem-service.md §2.1 (15))',
      },
    }],
  }),
] as const;
