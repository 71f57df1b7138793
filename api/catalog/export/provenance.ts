/**
 * The provenance columns of an export (organisms with their NCBI taxon ids, citation DOIs,
 * collections), read for a page of molecules at a time.
 */
import type { CatalogStore, CollectionName, Doc } from '../store/types.ts';
import { LIST_SEPARATOR, isProvenance, type Provenance, type ProvenanceField } from './format.ts';

/** The distinct integer ids a page's molecules list under `key`. */
function linkedIds(docs: Doc[], key: string): number[] {
  const out = new Set<number>();
  for (const d of docs) {
    const v = d[key];
    if (Array.isArray(v)) for (const id of v) if (Number.isInteger(id)) out.add(id as number);
  }
  return [...out];
}

/** A linked document's field as text ('' when missing: an organism may lack a taxon id). */
const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v).replace(/[|\r\n\t]+/g, ' ').trim());

/**
 * The provenance columns of a page of molecules: the organisms, citations and collections they
 * link to, read with one `find` per linked collection for the whole page (not per molecule).
 * Each list keeps the order of the molecule's own `*_ids`; a dangling id (its document deleted)
 * is left out.
 */
export async function loadProvenance(store: CatalogStore, docs: Doc[], fields: readonly string[]): Promise<Provenance | undefined> {
  const want = new Set(fields.filter(isProvenance));
  if (!want.size || !docs.length) return undefined;
  const read = async (collection: CollectionName, key: string, projection?: string[]): Promise<Map<number, Doc>> => {
    const ids = linkedIds(docs, key);
    if (!ids.length) return new Map();
    const found = await store.find(collection, { id: { $in: ids } }, projection ? { fields: projection } : {});
    return new Map(found.map((d) => [d.id, d]));
  };
  // Organisms are read whole: which taxon fields they carry depends on the schema of the day.
  const [organisms, citations, collections] = await Promise.all([
    want.has('organisms') || want.has('organism_ncbi_ids') ? read('organisms', 'organism_ids') : undefined,
    want.has('citation_dois') ? read('citations', 'citation_ids', ['id', 'doi']) : undefined,
    want.has('collections') ? read('collections', 'collection_ids', ['id', 'title']) : undefined,
  ]);
  const linked = (d: Doc, key: string, docsById: Map<number, Doc>): Doc[] =>
    (Array.isArray(d[key]) ? (d[key] as unknown[]) : []).flatMap((id) => {
      const l = docsById.get(id as number);
      return l ? [l] : [];
    });
  const out: Provenance = new Map();
  for (const d of docs) {
    const row: Partial<Record<ProvenanceField, string>> = {};
    if (organisms) {
      const orgs = linked(d, 'organism_ids', organisms);
      if (want.has('organisms')) row.organisms = orgs.map((o) => cell(o.name)).join(LIST_SEPARATOR);
      // Empty when no organism has an id, so that a column of unknowns is blank rather than `||`.
      const ncbi = orgs.map((o) => cell(o.ncbi_id));
      if (want.has('organism_ncbi_ids')) row.organism_ncbi_ids = ncbi.some((v) => v) ? ncbi.join(LIST_SEPARATOR) : '';
    }
    if (citations) {
      row.citation_dois = linked(d, 'citation_ids', citations)
        .map((c) => cell(c.doi))
        .filter((v) => v)
        .join(LIST_SEPARATOR);
    }
    if (collections) row.collections = linked(d, 'collection_ids', collections).map((c) => cell(c.title)).join(LIST_SEPARATOR);
    out.set(d.id, row);
  }
  return out;
}
