/**
 * Taxon queries: the organisms under a taxon at any rank, and the molecules reported from them.
 *
 * An organism is under taxon `T` when `T` equals, ignoring case (JavaScript's `toLowerCase` on
 * both sides, surrounding spaces dropped), its own `name` or one of its lineage fields (`domain`
 * .. `variety`, see api/catalog/schema/organisms.ts). So "Asteraceae" finds every organism whose
 * `family` is Asteraceae, "Plantae" every plant, "Artemisia" the genus's species and varieties,
 * and "Artemisia annua" the species with its varieties (and the organism named so, if any).
 *
 * The organisms are found through `CatalogStore.containing` (the embedded store's in-memory
 * substring index over the lineage, built once per write of `organisms`; MongoDB: a
 * case-insensitive regular expression), keeping the hits equal to the taxon (rank below the
 * field count). The molecule filter is `{ organism_ids: { $in: ids } }`, which the stores answer
 * from their `organism_ids` index.
 *
 * A page of a taxon's molecules (`moleculesUnderTaxon`, the tag search) is asked of the store's
 * `linkedPage` where it has one (the embedded store's taxon index, api/catalog/store/
 * embedded-linked.ts: per lower-cased lineage value its organisms, per organism its molecules,
 * rebuilt after writes; a kingdom's first page in milliseconds at 100,000 molecules, where the
 * filter re-reads every molecule); MongoDB counts and finds with the filter, from its
 * `organism_ids` index. The molecule scope, exports and the mass search use the filter.
 */
import type { CatalogStore, Filter, FindOptions, IdPage } from '../store/types.ts';
import { Errors } from '../schema/types.ts';

/** The lineage fields of an organism, from the widest rank to the narrowest. */
export const LINEAGE_FIELDS = ['domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety'] as const;
export type LineageField = (typeof LINEAGE_FIELDS)[number];

/** The fields a taxon is compared with: the organism's name, then its lineage. */
export const TAXON_FIELDS: readonly string[] = ['name', ...LINEAGE_FIELDS];

/** Longest taxon accepted (the longest LOTUS organism name is about 100 characters). */
export const MAX_TAXON_LENGTH = 200;

/**
 * The taxon as given, trimmed; a 422 (ValidationError under `key`) when it is not a non-empty
 * string of at most MAX_TAXON_LENGTH characters.
 */
export function checkTaxon(taxon: unknown, key = 'taxon'): string {
  const e = new Errors();
  if (typeof taxon !== 'string') e.add(key, `The ${key} field must be a string (a taxon name such as "Asteraceae"), not ${taxon === null ? 'null' : Array.isArray(taxon) ? 'an array' : typeof taxon}.`);
  else if (!taxon.trim()) e.add(key, `The ${key} field is required: a taxon name such as "Asteraceae" (any rank, from domain to variety, or an organism name).`);
  else if (taxon.length > MAX_TAXON_LENGTH) e.add(key, `The ${key} field must not be greater than ${MAX_TAXON_LENGTH} characters.`);
  e.throwIfAny();
  return (taxon as string).trim();
}

/** Ids of the organisms under `taxon` (any rank, descendants included), ascending. */
export async function organismIdsUnderTaxon(store: CatalogStore, taxon: string): Promise<number[]> {
  const t = checkTaxon(taxon);
  const hits = await store.containing('organisms', [...TAXON_FIELDS], t);
  // rank k < fields.length: field k equals the taxon ignoring case (not merely contains it)
  return hits.filter((h) => h.rank < TAXON_FIELDS.length).map((h) => h.id).sort((a, b) => a - b);
}

/** The molecule filter for "reported from an organism under `taxon`". */
export async function moleculeFilterForTaxon(store: CatalogStore, taxon: string): Promise<Filter> {
  return { organism_ids: { $in: await organismIdsUnderTaxon(store, taxon) } };
}

/** The order and the page asked of `moleculesUnderTaxon`. */
export type TaxonPageOptions = Pick<FindOptions, 'sort' | 'skip' | 'limit'>;

/**
 * The molecules reported from an organism under `taxon` that also match `filter`: their number and
 * the ids of one page. From the store's `linkedPage` when it has one, else `moleculesUnderTaxonByFilter`.
 */
export async function moleculesUnderTaxon(store: CatalogStore, taxon: string, filter: Filter | null, opts: TaxonPageOptions): Promise<IdPage> {
  const t = checkTaxon(taxon);
  if (!store.linkedPage) return moleculesUnderTaxonByFilter(store, t, filter, opts);
  return store.linkedPage({ field: 'organism_ids', keys: [...TAXON_FIELDS], value: t }, filter ?? {}, { sort: opts.sort, skip: opts.skip, limit: opts.limit });
}

/** The same answer through `moleculeFilterForTaxon`: a count and a find (every store; the reference for the index). */
export async function moleculesUnderTaxonByFilter(store: CatalogStore, taxon: string, filter: Filter | null, opts: TaxonPageOptions): Promise<IdPage> {
  const under = await moleculeFilterForTaxon(store, taxon);
  const f = filter && Object.keys(filter).length ? { $and: [filter, under] } : under;
  const [total, docs] = await Promise.all([store.count('molecules', f), store.find('molecules', f, { sort: opts.sort, skip: opts.skip, limit: opts.limit, fields: ['id'] })]);
  return { total, ids: docs.map((d) => d.id) };
}
