/**
 * The catalog resources, each declared once in this folder (`molecules.ts`, `properties.ts`,
 * `collections.ts`, `citations.ts`, `organisms.ts`, `users.ts`), and what is derived from the
 * declarations: the `ResourceDef`s of the Lomkit operations, new-record defaults, both stores'
 * indexes and the embedded store's lookup columns, the export columns, and the typed documents.
 */
import type { CollectionName, Doc } from '../store/types.ts';
import { defineResource, type DocOf, type FieldSpec, type FieldsOf, type ResourceDef, type ResourceName, type ResourceSchema } from './define.ts';
import { citationsSchema } from './citations.ts';
import { collectionsSchema } from './collections.ts';
import { moleculesSchema } from './molecules.ts';
import { organismsSchema } from './organisms.ts';
import { propertiesSchema } from './properties.ts';
import { usersSchema } from './users.ts';
import { reportsSchema } from './reports.ts';
import { auditsSchema } from './audits.ts';

export { STATUSES, type ActionDef, type FieldType, type RelationDef, type ResourceDef, type ResourceName } from './define.ts';

export const SCHEMAS: Record<ResourceName, ResourceSchema> = {
  molecules: moleculesSchema,
  collections: collectionsSchema,
  citations: citationsSchema,
  organisms: organismsSchema,
  properties: propertiesSchema,
  users: usersSchema,
  reports: reportsSchema,
  audits: auditsSchema,
};

export const molecules = defineResource(moleculesSchema);
export const properties = defineResource(propertiesSchema);
export const collections = defineResource(collectionsSchema);
export const citations = defineResource(citationsSchema);
export const organisms = defineResource(organismsSchema);
export const users = defineResource(usersSchema);
export const reports = defineResource(reportsSchema);
export const audits = defineResource(auditsSchema);

export const RESOURCES: Record<ResourceName, ResourceDef> = { molecules, collections, citations, organisms, properties, users, reports, audits };
/** The resources with Lomkit routes (audits are read per record: `GET /api/<r>/{id}/audits`). */
export const ROUTED: ResourceName[] = ['molecules', 'collections', 'citations', 'organisms', 'properties', 'users', 'reports'];

/** Stored field name of an exposed field. */
export const stored = (r: ResourceDef, field: string): string => r.aliases?.[field] ?? field;

export const relation = (r: ResourceDef, name: string) => r.relations.find((x) => x.name === name);

/** Scope name → filter on stored fields (every resource's scopes; only molecules declare some). */
export const SCOPES: Record<string, Record<string, unknown>> = Object.assign({}, ...Object.values(SCHEMAS).map((s) => s.scopes ?? {}));

// ---- typed documents -------------------------------------------------------------------------

type Links = { organism_ids?: number[]; citation_ids?: number[]; collection_ids?: number[] };
export type PropertiesDoc = DocOf<typeof propertiesSchema>;
/** The typed fields of each collection's documents (stored names, no `id`). */
export interface CollectionFields {
  molecules: FieldsOf<typeof moleculesSchema> & Links & { properties?: PropertiesDoc | null };
  collections: FieldsOf<typeof collectionsSchema>;
  citations: FieldsOf<typeof citationsSchema>;
  organisms: FieldsOf<typeof organismsSchema>;
  users: FieldsOf<typeof usersSchema> & { password_hash?: string | null };
  reports: FieldsOf<typeof reportsSchema>;
  audits: FieldsOf<typeof auditsSchema>;
  tokens: object;
  meta: object;
}
/** A stored document of a collection: its typed fields, and whatever else it holds (`Doc`). */
export type DocFor<C extends CollectionName> = Doc & CollectionFields[C];
export type MoleculeDoc = DocFor<'molecules'>;
export type CollectionDoc = DocFor<'collections'>;
export type CitationDoc = DocFor<'citations'>;
export type OrganismDoc = DocFor<'organisms'>;
export type UserDoc = DocFor<'users'>;
export type ReportDoc = DocFor<'reports'>;
export type AuditDoc = DocFor<'audits'>;
/** A new record (no `id`: the store assigns it). */
export type NewDoc<C extends CollectionName> = CollectionFields[C] & Record<string, unknown>;

// ---- derived from the declarations -----------------------------------------------------------

const storedName = (k: string, f: FieldSpec) => f.stored ?? k;

/**
 * The fields a new record gets before its own attributes (mutate `create`, the importer): each
 * field's `default`, `[]` for each link list the record holds, `null` for each embedded record.
 */
export function recordDefaults<C extends Exclude<CollectionName, 'tokens' | 'meta'>>(coll: C, schemas: Record<string, ResourceSchema> = SCHEMAS): Partial<NewDoc<C>> {
  const s = Object.values(schemas).find((x) => x.collection === coll)!;
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(s.fields)) if (f.default !== undefined) out[storedName(k, f)] = structuredClone(f.default);
  for (const rel of s.relations ?? []) {
    if (rel.storage === 'local') out[rel.field!] = [];
    if (rel.storage === 'embedded') out[rel.name] = null;
  }
  return out as Partial<NewDoc<C>>;
}

/** Collections that are not resources, and their indexes (tokens by user, bookkeeping by key). */
const INTERNAL_INDEXES: Partial<Record<CollectionName, string[]>> = { tokens: ['user_id'], meta: ['key'] };

/**
 * Paths of fields that are not resource fields whose string values the embedded store leaves in
 * its files (embedded-disk.ts): a molecule's search fingerprints (shared/chem/catalog/fingerprints.ts),
 * about 470 bytes of a 1.6 KB parsed document, which only the structure-search index's build (of
 * the rows its snapshot lacks) and whole-document reads ask for (the backfill's filter reads
 * `fingerprints.v`, which stays in memory). No filter may name them.
 */
const INTERNAL_ON_DISK: Partial<Record<CollectionName, string[]>> = { molecules: ['fingerprints.pattern', 'fingerprints.morgan'] };

export interface StoreIndexes {
  /** nedb indexes (besides the unique `id`). */
  embedded: string[];
  /** MongoDB indexes (besides the unique `id`). */
  mongo: string[];
  /** MongoDB unique sparse indexes. */
  mongoUnique: string[];
  /** Embedded lookup columns: exact paths, and prefixes (`properties.`) under which every path is one. */
  columns: string[];
  columnPrefixes: string[];
  /** Paths whose values repeat across documents (`repeats`): one copy of each in the embedded store's memory. */
  repeated: string[];
  /** Pairs of paths whose values are often equal within a document (`sameAs`): one copy of the two in the embedded store's memory. */
  sameAs: [string, string][];
  /** Paths whose string values the embedded store keeps in its file, not in memory. */
  onDisk: string[];
  /** Lists of ids whose contents repeat across documents (the link lists): one frozen copy of each in the embedded store's memory. */
  repeatedLists: string[];
}

/** Indexed paths of a schema's fields (under `prefix` for an embedded record). */
function fieldIndexes(s: ResourceSchema, prefix: string, out: StoreIndexes) {
  for (const [k, f] of Object.entries(s.fields)) {
    if (!f.index) continue;
    const path = prefix + storedName(k, f);
    const spec = f.index === true ? { embedded: 'index', mongo: 'index' } : f.index;
    if (spec.embedded === 'index') out.embedded.push(path);
    if (spec.embedded === 'column') out.columns.push(path);
    if (spec.mongo === 'index') out.mongo.push(path);
    if (spec.mongo === 'unique') out.mongoUnique.push(path);
  }
  for (const [k, f] of Object.entries(s.fields)) if (f.repeats) out.repeated.push(prefix + storedName(k, f));
  for (const [k, f] of Object.entries(s.fields)) if (f.sameAs) out.sameAs.push([prefix + storedName(k, f), f.sameAs]);
}

/** What each store builds for a collection: the fields' indexes, link lists, embedded records' fields. */
export function storeIndexes(coll: CollectionName, schemas: Record<string, ResourceSchema> = SCHEMAS): StoreIndexes {
  const internal = INTERNAL_INDEXES[coll] ?? [];
  const out: StoreIndexes = { embedded: [...internal], mongo: [...internal], mongoUnique: [], columns: [], columnPrefixes: [], repeated: [], sameAs: [], onDisk: [...(INTERNAL_ON_DISK[coll] ?? [])], repeatedLists: [] };
  const s = Object.values(schemas).find((x) => x.collection === coll);
  if (!s) return out;
  fieldIndexes(s, '', out);
  for (const rel of s.relations ?? []) {
    // link lists are searched by `remote` relations (a collection's molecules) and by deletes
    if (rel.storage === 'local') out.embedded.push(rel.field!), out.mongo.push(rel.field!), out.repeatedLists.push(rel.field!);
    if (rel.storage === 'embedded') {
      fieldIndexes(schemas[rel.target], `${rel.name}.`, out);
      out.columnPrefixes.push(`${rel.name}.`);
    }
  }
  return out;
}

/** The default export columns (CSV) and SDF data items: fields of molecules and properties by `export` rank. */
export function exportDefaults(mol: ResourceSchema = moleculesSchema, props: ResourceSchema = propertiesSchema): string[] {
  const ranked = [mol, props].flatMap((s) => Object.entries(s.fields as Record<string, FieldSpec>).filter(([, f]) => f.export !== undefined).map(([k, f]) => [k, f.export!] as const));
  return ranked.sort((a, b) => a[1] - b[1]).map(([k]) => k);
}

/** Stored names of the molecule fields a derivation writes, in declaration order. */
export const DERIVED_FIELDS: string[] = Object.entries(moleculesSchema.fields as Record<string, FieldSpec>).filter(([, f]) => f.derived).map(([k, f]) => storedName(k, f));
