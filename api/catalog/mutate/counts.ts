/**
 * `molecule_count` of organisms and collections: the number of molecules linked to each. It is
 * stored (COCONUT exposes it as a field and clients sort on it), so every write that changes a
 * link recomputes it for the records on the other end of that link.
 */
import type { CatalogStore, CollectionName, LinkField } from '../store/types.ts';

/** Ids on the other end of links that changed, by link field. */
export type Touched = Record<LinkField, Set<number>>;

const COUNTED: [LinkField, CollectionName][] = [
  ['organism_ids', 'organisms'],
  ['collection_ids', 'collections'],
];

export const touchedNone = (): Touched => ({ organism_ids: new Set(), collection_ids: new Set(), citation_ids: new Set() });

/** Adds the linked ids of these molecule documents (before they are deleted, say). */
export function touchLinksOf(t: Touched, docs: Record<string, unknown>[]): Touched {
  for (const d of docs) for (const [field] of COUNTED) for (const id of (d[field] as number[] | undefined) ?? []) t[field].add(id);
  return t;
}

export async function refreshMoleculeCounts(store: CatalogStore, touched: Touched): Promise<void> {
  for (const [field, coll] of COUNTED) {
    if (!touched[field].size) continue;
    const ids = [...touched[field]];
    // Only records that still exist (a deleted organism has nothing to update).
    for (const doc of await store.find(coll, { id: { $in: ids } }, { fields: ['id'] })) {
      await store.update(coll, doc.id, { molecule_count: await store.count('molecules', { [field]: doc.id }) });
    }
  }
}
