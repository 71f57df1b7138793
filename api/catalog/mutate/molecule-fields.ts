/**
 * The molecule fields the server keeps from other fields and from the catalog around the
 * molecule: `organism_count` (its linked organisms), `annotation_level` (COCONUT's score,
 * annotation.ts) and the stereo family fields `variants_count`, `has_variants`, `is_parent`
 * (variants.ts). Recomputed right after each write that can change them (counts.ts,
 * `refreshMoleculeCounts`); a molecule is rewritten only when a value changed.
 */
import { ANNOTATION_INPUTS, annotationLevel } from './annotation.ts';
import { keyBlock, variantFields } from './variants.ts';
import type { CatalogStore, Doc } from '../store/types.ts';

const CHUNK = 500;

const changed = (d: Doc, set: Record<string, unknown>) => Object.fromEntries(Object.entries(set).filter(([k, v]) => d[k] !== v));

/**
 * Recomputes the kept fields of the molecules `ids` (those that still exist) and the family
 * fields of every molecule of the InChIKey first blocks `blocks` and of those molecules' blocks.
 */
/** A molecule's kept fields that follow from its own document: its organism count and annotation level. */
export function ownKeptFields(d: Record<string, unknown>): { organism_count: number; annotation_level: number } {
  return { organism_count: Array.isArray(d.organism_ids) ? d.organism_ids.length : 0, annotation_level: annotationLevel(d) };
}

export async function refreshMoleculeFields(store: CatalogStore, ids: Iterable<number>, blocks: Iterable<string> = []): Promise<void> {
  const all = [...new Set(ids)];
  const blocksLeft = new Set(blocks);
  for (let i = 0; i < all.length; i += CHUNK) {
    const docs = await store.find('molecules', { id: { $in: all.slice(i, i + CHUNK) } }, { fields: [...ANNOTATION_INPUTS, 'organism_count', 'annotation_level', 'standard_inchi_key'] });
    for (const d of docs) {
      const set = changed(d, ownKeptFields(d));
      if (Object.keys(set).length) await store.update('molecules', d.id, set);
      const block = keyBlock(d.standard_inchi_key);
      if (block) blocksLeft.add(block);
    }
  }
  for (const block of blocksLeft) {
    // every key of the block: [BLOCK-, BLOCK.) ('.' follows '-'), an index range in both stores
    const members = await store.find('molecules', { standard_inchi_key: { $gte: `${block}-`, $lt: `${block}.` } }, { fields: ['standard_inchi', 'variants_count', 'has_variants', 'is_parent'] });
    for (const [id, fields] of variantFields(members)) {
      const d = members.find((m) => m.id === id)!;
      const set = changed(d, { ...fields });
      if (Object.keys(set).length) await store.update('molecules', id, set);
    }
  }
}
