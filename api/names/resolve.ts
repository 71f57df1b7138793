/**
 * A chemical name to a structure, api side, trying in order:
 *   (a) OPSIN (systematic/IUPAC names and the trivial names it knows), in this process's JVM;
 *   (b) the catalog's own names: `name`, `iupac_name` and `synonyms` of molecules;
 *   (c) the external compound database (PubChem PUG-REST by name), when reachable.
 * Every structure found is written by RDKit (the `generate_smiles` task on a worker thread), so a
 * name answers exactly what its SMILES would. The answer names the resolver that found it.
 */
import { AppError } from '../../shared/errors.ts';
import { extdbWait } from '../../shared/extdb/budget.ts';
import type { ApiContext, CatalogReader } from '../chem/context.ts';
import { OpsinError } from './opsin.ts';
import { OPSIN_INSTALL_HINT } from './opsin-setup.ts';
import { sharedOpsin } from './service.ts';

export type Resolver = 'opsin' | 'catalog' | 'extdb';

export interface NameResolution {
  /** RDKit canonical isomeric SMILES, as generate_smiles answers for a structure. */
  smiles: string;
  resolver: Resolver;
  /** Who answered, for people: `OPSIN 2.7.0`, `catalog molecule CNP0228556`, the database URL. */
  source: string;
  /** A caveat from the resolver (OPSIN's warning, several catalog molecules with the name). */
  warning?: string;
}

const OP = 'generate_smiles';

/**
 * Spellings tried against the catalog's exact-match fields (exact matches use the stores' indexes;
 * a case-insensitive regex would scan the collection): as given, lower case, capitalised, each
 * word capitalised, upper case.
 */
export function nameVariants(name: string): string[] {
  const lower = name.toLowerCase();
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return [...new Set([name, lower, cap(lower), lower.split(' ').map(cap).join(' '), name.toUpperCase()])];
}

/** RDKit's canonical SMILES of a resolver's SMILES (null when RDKit cannot read it). */
async function canonical(ctx: ApiContext, smiles: string): Promise<string | null> {
  try {
    const out = await ctx.runner.runTask(OP, 'generate_smiles', { input_text: smiles, representation: 'smiles' });
    return typeof out === 'string' && out !== '' ? out : null;
  } catch (e) {
    if (AppError.from(e)?.status === 422) return null;
    throw e;
  }
}

/** Catalog molecules that carry the name; the first one's structure, with a caveat if they differ. */
export async function catalogByName(store: CatalogReader, name: string): Promise<{ smiles: string; identifier: string; others: number } | null> {
  const variants = nameVariants(name);
  const docs = await store.find(
    'molecules',
    { $or: [{ name: { $in: variants } }, { iupac_name: { $in: variants } }, { synonyms: { $in: variants } }] },
    { limit: 20, fields: ['identifier', 'canonical_smiles', 'standard_inchi_key'] },
  );
  const hits = docs.filter((d) => typeof d.canonical_smiles === 'string' && d.canonical_smiles !== '');
  if (hits.length === 0) return null;
  const first = hits[0];
  const keys = new Set(hits.map((d) => d.standard_inchi_key ?? d.canonical_smiles));
  return { smiles: first.canonical_smiles as string, identifier: String(first.identifier ?? `id ${first.id}`), others: keys.size - 1 };
}

/**
 * The structure the name denotes, or a 422 saying what each resolver answered (and what to
 * install when OPSIN is missing). `prefix` opens that detail (auto mode: why it was not read as
 * a structure).
 */
export async function resolveName(rawName: string, ctx: ApiContext, prefix = '', opts: { asWritten?: boolean } = {}): Promise<NameResolution> {
  const name = rawName.trim();
  const misses: string[] = [];
  let opsinMissing = false;

  // (a) OPSIN
  const { bridge, setup } = sharedOpsin(ctx.config);
  if (!bridge) {
    opsinMissing = !setup.disabled;
    misses.push(`OPSIN not available (${setup.problem})`);
  } else {
    try {
      const answer = await bridge.parse(name);
      if (answer.ok) {
        const smiles = await canonical(ctx, answer.smiles);
        const source = `OPSIN ${bridge.version ?? ''}`.trim();
        // `asWritten`: OPSIN's own SMILES (once RDKit has read it), as the original's generate_smiles answers it.
        if (smiles) return { smiles: opts.asWritten ? answer.smiles : smiles, resolver: 'opsin', source, ...(answer.warning ? { warning: answer.warning } : {}) };
        misses.push(`OPSIN answered ${answer.smiles}, which RDKit cannot read`);
      } else {
        misses.push(`OPSIN: ${answer.message}`);
      }
    } catch (e) {
      if (!(e instanceof OpsinError)) throw e;
      if (e.kind === 'unavailable') opsinMissing = true;
      misses.push(`OPSIN: ${e.message}`);
    }
  }

  // (b) the catalog
  if (ctx.store) {
    const hit = await catalogByName(ctx.store, name);
    const smiles = hit && (await canonical(ctx, hit.smiles));
    if (hit && smiles) {
      const warning = hit.others > 0 ? `${hit.others + 1} different catalog molecules carry this name; answered ${hit.identifier}` : undefined;
      return { smiles, resolver: 'catalog', source: `catalog molecule ${hit.identifier}`, ...(warning ? { warning } : {}) };
    }
    misses.push('catalog: no molecule has this name, IUPAC name or synonym');
  }

  // (c) the external compound database
  const { config } = ctx;
  try {
    const found = await ctx.runner.runTask(OP, 'extdb_lookup', { identifier: name }, extdbWait(config.EXTDB_TIMEOUT_MS));
    const smiles = found.canonical_smiles && (await canonical(ctx, found.canonical_smiles));
    if (smiles) return { smiles, resolver: 'extdb', source: config.EXTDB_URL };
    misses.push('external compound database: not found');
  } catch (e) {
    const app = AppError.from(e);
    if (!app || app.status < 500) throw e;
    misses.push(`external compound database unreachable (${typeof app.detail === 'string' ? app.detail : app.status})`);
  }

  const install = opsinMissing ? ` To read systematic names, ${OPSIN_INSTALL_HINT}.` : '';
  throw new AppError(422, `${prefix}Cannot resolve the name '${name}': ${misses.join('; ')}.${install}`, 'invalid_input');
}
