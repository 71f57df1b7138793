/**
 * The catalog store port. Two implementations: `embedded` (@seald-io/nedb files under DATA_DIR)
 * and `mongo` (mongoose). Obtain one with `openStore({mongoUrl, dataDir})` from `./open.ts`.
 *
 * ## Data model (what the importer and the API write)
 *
 * Every document has a numeric `id` (auto-increment per collection, assigned by `insert`/`upsert`;
 * never pass one yourself). Collections and their fields:
 *
 * - `molecules`: the 20 seed fields (`standard_inchi`, `standard_inchi_key`, `canonical_smiles`,
 *   `sugar_free_smiles`, `identifier`, `name`, `cas` (string[] | null), `iupac_name`,
 *   `murcko_framework` (the seed's `murko_framework` is an alias of it), `structural_comments`,
 *   `name_trust_level`, `annotation_level`, `variants_count`, `status`
 *   (DRAFT|INREVIEW|APPROVED|REVOKED), `active`, `has_variants`, `has_stereo`, `is_tautomer`,
 *   `is_parent`, `is_placeholder`) plus:
 *   - `properties`: the embedded properties record (`{id, ...32 properties fields}`) or null.
 *     Write it with `setProperties(moleculeId, props)` so it gets its own id.
 *   - `organism_ids`, `citation_ids`, `collection_ids`: number[] link lists (the many-to-many
 *     relations live on the molecule side only). Write them with `link`/`unlink`.
 * - `organisms`: `name` (unique), `iri`, `rank`, `molecule_count`.
 * - `citations`: `doi` (unique when set), `title`, `authors`, `citation_text`.
 * - `collections`: `title`, `description`, `identifier`, `url`, `molecule_count` (internal).
 * - `users` (`email`, `name`, `role`, `password_hash`) and `tokens` (`user_id`, `name`,
 *   `token_hash`, `created_at`, `last_used_at`): auth, see `api/catalog/auth/auth.ts`.
 * - `meta`: bookkeeping records by `key` (e.g. `demo_seed`, the first-start demo import).
 * - `reports`: submissions and reports (api/catalog/schema/reports.ts); `audits`: the audit trail,
 *   one entry per write to a record (api/catalog/schema/audits.ts, api/catalog/audit/).
 *
 * Missing optional fields may be left out or null: queries treat both alike.
 *
 * ## Typical importer calls
 *
 * ```ts
 * const store = await openStore({ mongoUrl: cfg.MONGO_URL, dataDir: cfg.DATA_DIR });
 * const { doc: org } = await store.upsert('organisms', 'name', 'Homo sapiens', { iri, rank });
 * const { doc: mol, created } = await store.upsert('molecules', 'standard_inchi_key', key, {...});
 * if (created) await store.update('molecules', mol.id, { identifier: await nextIdentifier(store) });
 * await store.setProperties(mol.id, derived.properties);
 * await store.link(mol.id, 'organism_ids', [org.id]);
 * await store.close();
 * ```
 * For bulk loads, `insertMany` is much faster than one `insert` per row.
 *
 * ## Concurrency between processes (embedded store)
 *
 * Every operation of the embedded store takes an exclusive lock file (`DATA_DIR/catalog.lock`) for
 * its duration and, before reading, reloads any collection file that another process changed since
 * (compared by inode, size and mtime). So the API server, `npm run token` and the importer may run
 * at the same time on one DATA_DIR: no write is lost and the server sees the others' writes at its
 * next request. `exclusive(fn)` holds the lock across several calls (used for all-or-nothing mutate
 * and for each import row); calls inside it neither reload nor re-take the lock. `close()` reloads
 * before it compacts the files this process wrote, so it cannot drop another process's writes.
 */

/** Collections held by the store. */
export type CollectionName =
  | 'molecules'
  | 'organisms'
  | 'citations'
  | 'collections'
  | 'users'
  | 'tokens'
  | 'meta'
  | 'reports'
  | 'audits';

export const COLLECTIONS: readonly CollectionName[] = [
  'molecules',
  'organisms',
  'citations',
  'collections',
  'users',
  'tokens',
  'meta',
  'reports',
  'audits',
];

/** The link-list fields on molecules. */
export type LinkField = 'organism_ids' | 'citation_ids' | 'collection_ids';

export type Doc = { id: number; [field: string]: unknown };
/**
 * The typed documents of the catalog's collections (`MoleculeDoc`, ...), derived from the resource
 * declarations (api/catalog/schema/): what `find`, `insert` and their kin take and give.
 */
export type { DocFor, NewDoc } from '../schema/resources.ts';
import type { DocFor, NewDoc } from '../schema/resources.ts';

/**
 * A MongoDB-style filter using only: field equality, `$lt $lte $gt $gte $ne $in $nin $exists
 * $regex` on fields, and `$and $or $not` at the top level of an object (`$not: {...}` takes a
 * whole filter; the mongo adapter rewrites it to `$nor`). Dotted paths reach into `properties`.
 */
export type Filter = Record<string, unknown>;

/** One sort key. `nulls` places null/missing values (PostgreSQL: last on asc, first on desc). */
export interface SortKey {
  field: string;
  dir: 1 | -1;
  nulls: 'first' | 'last';
}

export interface FindOptions {
  sort?: SortKey[];
  skip?: number;
  /** 0 or absent = no limit. */
  limit?: number;
  /** Fields to return (always with `id`); absent = whole documents. */
  fields?: string[];
}

/** One hit of `containing`: the document's id, its relevance `rank` and the `extra` fields asked for. */
export interface TextHit {
  id: number;
  /**
   * `k` when field `k` (its position in `fields`) equals the text, ignoring case; `fields.length + k`
   * when field `k` only contains it; the smallest such value over the fields.
   */
  rank: number;
  [field: string]: unknown;
}

/**
 * What `linkedPage` looks for: molecules whose link list `field` names a document (of the
 * collection that list points to) one of whose `keys` fields equals `value`, ignoring case.
 */
export interface LinkedKey {
  field: LinkField;
  /** Fields of the linked documents compared (a string, or a list of strings; dotted paths reach inside). */
  keys: string[];
  value: string;
}

/** One page of ids and the total it was cut from. */
export interface IdPage {
  total: number;
  ids: number[];
}

/** The collection each link list points to. */
export const LINKED: Record<LinkField, CollectionName> = { organism_ids: 'organisms', citation_ids: 'citations', collection_ids: 'collections' };

export interface CatalogStore {
  readonly kind: 'embedded' | 'mongo';

  find<C extends CollectionName>(coll: C, filter: Filter, opts?: FindOptions): Promise<DocFor<C>[]>;
  count(coll: CollectionName, filter: Filter): Promise<number>;
  findOne<C extends CollectionName>(coll: C, filter: Filter): Promise<DocFor<C> | null>;
  /** Documents with these ids, in the order of `ids` (unknown ids skipped); with `fields`, only those (and `id`), as `find` projects. */
  findByIds<C extends CollectionName>(coll: C, ids: number[], fields?: string[]): Promise<DocFor<C>[]>;
  /** The distinct values of an (array) field over matching documents, flattened. */
  distinct(coll: CollectionName, field: string, filter: Filter): Promise<unknown[]>;
  /**
   * Text search: every document one of whose `fields` (a string, or a list of strings) contains
   * `text` as a literal substring, ignoring case (JavaScript's `toLowerCase` on both sides), with
   * its rank and the top-level `extra` fields, in no particular order. The embedded store answers
   * from an in-memory substring index; MongoDB with a case-insensitive regular expression.
   */
  containing(coll: CollectionName, fields: string[], text: string, extra?: string[]): Promise<TextHit[]>;

  /**
   * Optional (the embedded store has it; without it, count and find with a filter): the molecules
   * whose link list `q.field` names a document one of whose `q.keys` equals `q.value` ignoring case
   * (JavaScript's `toLowerCase` on both sides, the exact hit of `containing`) and that match
   * `filter`: their number and the ids of one page (`sort`, `skip`, `limit`; `fields` unused).
   * The same answer as `count` and `find` with `{[q.field]: {$in: <ids of those documents>}}` and
   * `filter`, from an index kept until either collection is written (taxon queries,
   * api/catalog/taxonomy/taxon.ts).
   */
  linkedPage?(q: LinkedKey, filter: Filter, opts?: FindOptions): Promise<IdPage>;

  /** Inserts and returns the document with its new `id`. */
  insert<C extends CollectionName>(coll: C, doc: NewDoc<C>): Promise<DocFor<C>>;
  insertMany<C extends CollectionName>(coll: C, docs: NewDoc<C>[]): Promise<DocFor<C>[]>;
  /**
   * Finds the document whose `field` equals `value`; updates it with `set` (`$set` semantics) or
   * inserts `{[field]: value, ...set}`. `created` tells which.
   */
  upsert(
    coll: CollectionName,
    field: string,
    value: unknown,
    set: Record<string, unknown>,
  ): Promise<{ doc: Doc; created: boolean }>;
  /** `$set` of `set` and `$unset` of `unset` on one document; returns it or null if absent. */
  update(coll: CollectionName, id: number, set: Record<string, unknown>, unset?: string[]): Promise<Doc | null>;
  /** Replaces a whole document (keeps its id). Used to roll back. */
  replace(coll: CollectionName, doc: Doc): Promise<void>;
  /** Deletes by id; returns how many were deleted. */
  remove(coll: CollectionName, ids: number[]): Promise<number>;

  /** Adds ids to a molecule's link list (no duplicates). */
  link(moleculeId: number, field: LinkField, ids: number[]): Promise<void>;
  /** Removes ids from a molecule's link list. */
  unlink(moleculeId: number, field: LinkField, ids: number[]): Promise<void>;
  /** Sets (or clears, with null) a molecule's properties record; gives it an id once. */
  setProperties(moleculeId: number, props: Record<string, unknown> | null): Promise<void>;

  /**
   * Next value of a named counter, starting at 1 (e.g. `molecule_identifier`); with `atLeast`,
   * never below it (the import moves the identifier counter past the identifiers it kept).
   */
  nextCounter(name: string, atLeast?: number): Promise<number>;
  /**
   * Told when another process changed a collection (embedded: the import CLI or `npm run token`
   * wrote to the same DATA_DIR, seen at our next operation). Absent: the store cannot tell.
   */
  onExternalChange?(fn: (coll: CollectionName) => void): void;
  /** Runs `fn` holding the store's write lock (embedded: cross-process; mongo: no-op wrapper). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** When set, MongoDB through mongoose; otherwise the embedded store. */
  mongoUrl?: string;
  /** Directory of the embedded store's files (created if missing). */
  dataDir: string;
}
