/**
 * `molecule_count` of organisms and collections: the number of molecules linked to each. It is
 * stored (COCONUT exposes it as a field and clients sort on it), so every write that changes a
 * link recomputes it for the records on the other end of that link. The same call keeps the
 * molecules' own kept fields (`organism_count`, `annotation_level`, the stereo family fields:
 * molecule-fields.ts) for the molecules written and the InChIKey blocks whose members changed.
 */
import { refreshMoleculeFields } from './molecule-fields.ts';
import { keyBlock } from './variants.ts';
import type { CatalogStore, CollectionName, LinkField } from '../store/types.ts';

/**
 * Ids on the other end of links that changed, by link field; `molecules`: molecules whose fields or
 * links changed; `blocks`: InChIKey first blocks that lost or gained a molecule (a delete, a new structure).
 */
export type Touched = Record<LinkField, Set<number>> & { molecules: Set<number>; blocks: Set<string> };

const COUNTED: [LinkField, CollectionName][] = [
  ['organism_ids', 'organisms'],
  ['collection_ids', 'collections'],
];

export const touchedNone = (): Touched => ({ organism_ids: new Set(), collection_ids: new Set(), citation_ids: new Set(), molecules: new Set(), blocks: new Set() });

/** Adds the linked ids and the InChIKey block of these molecule documents (before they are deleted, say). */
export function touchLinksOf(t: Touched, docs: Record<string, unknown>[]): Touched {
  for (const d of docs) {
    for (const [field] of COUNTED) for (const id of (d[field] as number[] | undefined) ?? []) t[field].add(id);
    touchBlockOf(t, d);
  }
  return t;
}

/** Adds the InChIKey block of a molecule as it is now (before its structure changes, say). */
export function touchBlockOf(t: Touched, doc: Record<string, unknown> | null | undefined): Touched {
  const block = keyBlock(doc?.standard_inchi_key);
  if (block) t.blocks.add(block);
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
  if (touched.molecules.size || touched.blocks.size) await refreshMoleculeFields(store, touched.molecules, touched.blocks);
}
