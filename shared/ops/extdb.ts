/**
 * Registry entry of the identifier-to-SMILES lookup (docs/spec/chem-service.md §2.1 (15); upstream path
 * /chem/pubchem/smiles). The api handler answers from the local catalog when a molecule there
 * carries the identifier (COCONUT identifier, name, CAS number or InChIKey) and otherwise runs
 * the `extdb_lookup` task against the external compound database (EXTDB_URL).
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { inputTypeOf } from '../extdb/identifier.ts';
import { extdbBudgetMs, type ExtdbAnswer } from './extdb.tasks.ts';
import { defineOp, type ApiContext, type CatalogReader } from './types.ts';
import { CAFFEINE } from './examples.ts';

const OP = 'retrieve_extdb_smiles';

/** Spellings of a name to try against the catalog's exact-match fields. */
function nameVariants(s: string): string[] {
  const cap = s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  return [...new Set([s, s.toLowerCase(), cap])];
}

/** The stored canonical SMILES of the catalog molecule the identifier names, if any. */
export async function catalogSmiles(store: CatalogReader, identifier: string): Promise<string | null> {
  const doc = await store.findOne('molecules', {
    $or: [
      { identifier },
      { standard_inchi_key: identifier },
      { cas: identifier },
      { name: { $in: nameVariants(identifier) } },
    ],
  });
  const smiles = doc?.canonical_smiles;
  return typeof smiles === 'string' && smiles !== '' ? smiles : null;
}

export async function retrieveExtdbSmiles(args: { identifier: string }, ctx: ApiContext): Promise<ExtdbAnswer> {
  const identifier = args.identifier ?? '';
  const id = identifier.trim();
  if (id === '') throw new AppError(422, 'Chemical identifier is required', 'invalid_input');
  if (ctx.store) {
    const local = await catalogSmiles(ctx.store, id);
    if (local) return { input: identifier, canonical_smiles: local, input_type: inputTypeOf(id), success: true };
  }
  const budget = extdbBudgetMs(ctx.config.EXTDB_TIMEOUT_MS);
  return (await ctx.runner.run(OP, 'extdb_lookup', { identifier }, { timeoutMs: budget + 2_000, waitMs: budget + 5_000 })) as ExtdbAnswer;
}

export const extdbOps = [
  defineOp({
    name: OP,
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
    mode: 'quick',
    task: 'extdb_lookup',
    api: retrieveExtdbSmiles,
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
