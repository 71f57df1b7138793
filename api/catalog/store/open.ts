import type { CatalogStore, OpenStoreOptions } from './types.ts';

/** MongoDB when `mongoUrl` is set, else the embedded store under `dataDir`. */
export async function openStore(opts: OpenStoreOptions): Promise<CatalogStore> {
  if (opts.mongoUrl) {
    const { MongoStore } = await import('./mongo.ts');
    return MongoStore.open(opts.mongoUrl);
  }
  const { EmbeddedStore } = await import('./embedded.ts');
  return EmbeddedStore.open(opts.dataDir);
}

/** Next molecule identifier, `CNP` + 7 digits (assigned once per molecule). */
export async function nextIdentifier(store: CatalogStore): Promise<string> {
  const n = await store.nextCounter('molecule_identifier');
  return `CNP${String(n).padStart(7, '0')}`;
}
