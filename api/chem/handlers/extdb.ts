/**
 * Api-side handler of `retrieve_extdb_smiles` (registry entry: shared/ops/extdb.ts): answers from the
 * local catalog when a molecule there carries the identifier (COCONUT identifier, name, CAS number
 * or InChIKey), otherwise runs the internal `extdb_lookup` task against the external compound
 * database (EXTDB_URL).
 */
import { AppError } from '../../../shared/errors.ts';
import { extdbWait } from '../../../shared/extdb/budget.ts';
import { inputTypeOf } from '../../../shared/extdb/identifier.ts';
import type { ExtdbAnswer } from '../../../shared/ops/extdb.tasks.ts';
import { nameVariants } from '../../names/resolve.ts';
import type { ApiContext, CatalogReader } from '../context.ts';
import type { HandlerArgs } from './types.ts';

const OP = 'retrieve_extdb_smiles';

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

export async function retrieveExtdbSmiles(args: HandlerArgs<typeof OP>, ctx: ApiContext): Promise<ExtdbAnswer> {
  const identifier = args.identifier ?? '';
  const id = identifier.trim();
  if (id === '') throw new AppError(422, 'Chemical identifier is required', 'invalid_input');
  if (ctx.store) {
    const local = await catalogSmiles(ctx.store, id);
    if (local) return { input: identifier, canonical_smiles: local, input_type: inputTypeOf(id), success: true };
  }
  return ctx.runner.runTask(OP, 'extdb_lookup', { identifier }, extdbWait(ctx.config.EXTDB_TIMEOUT_MS));
}

/** This family's api-side handlers by operation name (listed in index.ts). */
export const extdbHandlers = { retrieve_extdb_smiles: retrieveExtdbSmiles };
