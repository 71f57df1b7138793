/**
 * The one declaration of a catalog resource. A resource file (`./molecules.ts`, ...) lists its
 * fields with their type, default, write rules, indexes, export rank and documentation, plus its
 * relations, limits, scopes and actions; `defineResource` turns that into the `ResourceDef` the
 * Lomkit operations read (detail, search validation, mutate, serialization), and `./derive.ts`
 * computes the rest from the same declarations: new-record defaults (mutate and import), the
 * index lists of both stores, the export columns, the fields a derivation writes, and the
 * generated fields tables of docs/catalog.md. Adding a plain field is one entry in one file.
 */
import type { CollectionName, LinkField } from '../store/types.ts';

/** `decimal`: PostgreSQL decimal(8,2) in COCONUT, so values written through mutate keep 2 places. */
export type FieldType = 'string' | 'int' | 'number' | 'decimal' | 'bool' | 'status' | 'role' | 'string[]' | 'int[]' | 'json';
export type ResourceName = 'molecules' | 'collections' | 'citations' | 'organisms' | 'properties' | 'users' | 'reports' | 'audits';

export const STATUSES = ['DRAFT', 'INREVIEW', 'APPROVED', 'REVOKED'] as const;
export type Status = (typeof STATUSES)[number];
export type Role = 'reader' | 'curator' | 'admin';

/**
 * Where a field is looked up fast. `true`: a nedb index and a MongoDB index. `embedded`: `index`
 * (a nedb index, updated on every write: for selective fields), `column` (a lookup column built on
 * first use and dropped at the next write, embedded-columns.ts: for flags and counts shared by many
 * documents) or `false`. `mongo`: `index`, `unique` (unique among the documents that have the
 * field) or `false`.
 */
export type IndexSpec = true | { embedded?: 'index' | 'column' | false; mongo?: 'index' | 'unique' | false };

export interface FieldSpec {
  type: FieldType;
  /** One line for the generated fields table. */
  doc: string;
  /** The value a new record gets (mutate `create` and the importer) when nothing sets it. */
  default?: unknown;
  /** Mutate refuses it (`... is prohibited.`): only the server writes it. */
  readOnly?: boolean;
  /** Written from the structure by the derivation (`derive_molecule`, shared/chem/catalog/derive.ts), under its stored name. */
  derived?: boolean;
  /** Stored name when it differs from the exposed one (the seed's `murko_framework`). */
  stored?: string;
  /**
   * `writeOnly`: mutate accepts it, no operation outputs it (a user's password); `internal`:
   * stored (with its default) but neither exposed nor writable.
   */
  visibility?: 'writeOnly' | 'internal';
  index?: IndexSpec;
  /** Position among the default export columns (CSV) and SDF data items; absent: not a default. */
  export?: number;
  /** The rule `detail` advertises, when not the type's own. */
  rule?: string;
  /**
   * For a record embedded in another document (properties): the field is that document's field
   * of this name, not stored in the record (a property's `molecule_id` is its molecule's `id`).
   */
  outer?: string;
  /** The values mutate accepts (a string field holding one of a few words). */
  oneOf?: readonly string[];
  /**
   * Its values repeat across documents (a status, a class label): the embedded store keeps one
   * copy of each value in memory, shared by the documents that hold it (embedded-shared.ts).
   */
  repeats?: boolean;
  /**
   * Its value is often the same as the field at this path of the document (from its root): the
   * embedded store then keeps one copy of the two (embedded-shared.ts).
   */
  sameAs?: string;
}

export interface RelationDef {
  name: string;
  kind: 'HasOne' | 'BelongsToMany';
  target: ResourceName;
  /**
   * How the link is stored: `embedded` = the target lives in the parent's `properties` field;
   * `local` = the parent (a molecule) holds the id list `field`; `remote` = the target (molecules)
   * holds the id list `field` pointing at the parent.
   */
  storage: 'embedded' | 'local' | 'remote';
  field?: LinkField;
}

export interface ActionDef {
  name: string;
  uriKey: string;
  /** field name → Laravel-style rules, as listed by the detail operation */
  fields: Record<string, string[]>;
  standalone: boolean;
  /** The lowest role that may run it (default curator). */
  role?: Role;
}

export interface ResourceSchema {
  name: ResourceName;
  /** Its store collection; null for a record embedded in another (properties). */
  collection: CollectionName | null;
  /** The Lomkit resource class name (without `App\Rest\Resources\`). */
  className: string;
  /** In output order (the seed's order, `id` first). */
  fields: Record<string, FieldSpec>;
  relations?: RelationDef[];
  limits?: number[];
  /** Scope name → filter on stored fields. */
  scopes?: Record<string, Record<string, unknown>>;
  /**
   * Scopes taking parameters (Lomkit's `{name, parameters}`): name → the names of its string
   * parameters, all required; api/catalog/search/lomkit/query.ts (PARAMETER_SCOPES) turns them into a filter.
   */
  parameterScopes?: Record<string, { parameters: string[]; doc: string }>;
  actions?: ActionDef[];
  /** Every ability on this resource, reading included, is the admin's (user management). */
  adminOnly?: boolean;
  /** Its route only reads (detail, search): mutate and delete there answer 403 (properties: written through the molecule). */
  readOnlyRoute?: boolean;
  /** The lowest role that may create records (default curator; reports: reader). */
  createRole?: Role;
  /** The field naming a record's owner: readers see only the records they own (reports). */
  ownerField?: string;
  /** Records are never deleted (delete answers 403 to everyone: reports stay readable). */
  noDelete?: boolean;
  /** One line for docs/catalog.md. */
  doc: string;
}

/** What the Lomkit operations read (derived from a `ResourceSchema`). */
export interface ResourceDef {
  name: ResourceName;
  collection: CollectionName | null;
  /** The Lomkit resource class name that detail operations report for relations to this resource. */
  className: string;
  /** Exposed fields in output order. */
  fields: Record<string, FieldType>;
  /** Exposed name → stored name (the seed's `murko_framework` typo). */
  aliases?: Record<string, string>;
  /** Fields only the server writes (derived from the structure, or assigned once). */
  readOnly?: string[];
  /** Attributes mutate accepts but no operation outputs (a user's password). */
  writeOnly?: Record<string, FieldType>;
  /** Every ability on this resource, reading included, is the admin's (user management). */
  adminOnly?: boolean;
  /** Exposed field → the containing document's field (embedded records: a property's `molecule_id`). */
  outer?: Record<string, string>;
  relations: RelationDef[];
  limits: number[];
  scopes: string[];
  actions: ActionDef[];
  /** The declaration it was made from. */
  schema: ResourceSchema;
}

/** Checks a declaration's shape and keeps its literal types (for `DocOf`). */
export const defineSchema = <const S extends ResourceSchema>(s: S): S => s;

const entries = (s: ResourceSchema) => Object.entries(s.fields);

/** The `ResourceDef` of a declaration. */
export function defineResource(s: ResourceSchema): ResourceDef {
  const exposed = entries(s).filter(([, f]) => !f.visibility);
  const writeOnly = entries(s).filter(([, f]) => f.visibility === 'writeOnly');
  const aliases = Object.fromEntries(exposed.filter(([, f]) => f.stored).map(([k, f]) => [k, f.stored!]));
  const readOnly = exposed.filter(([, f]) => f.readOnly || f.outer).map(([k]) => k);
  const outer = Object.fromEntries(exposed.filter(([, f]) => f.outer).map(([k, f]) => [k, f.outer!]));
  return {
    name: s.name,
    collection: s.collection,
    className: `App\\Rest\\Resources\\${s.className}`,
    fields: Object.fromEntries(exposed.map(([k, f]) => [k, f.type])),
    ...(Object.keys(aliases).length ? { aliases } : {}),
    ...(readOnly.length ? { readOnly } : {}),
    ...(writeOnly.length ? { writeOnly: Object.fromEntries(writeOnly.map(([k, f]) => [k, f.type])) } : {}),
    ...(s.adminOnly ? { adminOnly: true } : {}),
    ...(Object.keys(outer).length ? { outer } : {}),
    relations: s.relations ?? [],
    limits: s.limits ?? [10, 25, 50],
    scopes: [...Object.keys(s.scopes ?? {}), ...Object.keys(s.parameterScopes ?? {})],
    actions: s.actions ?? [],
    schema: s,
  };
}

/** The TypeScript type of a field's value. */
type ValueOf<T extends FieldType> = T extends 'string' ? string
  : T extends 'int' | 'number' | 'decimal' ? number
  : T extends 'bool' ? boolean
  : T extends 'status' ? Status
  : T extends 'role' ? Role
  : T extends 'string[]' ? string[]
  : T extends 'int[]' ? number[]
  : T extends 'json' ? Record<string, unknown>
  : never;

type StoredName<K, F> = F extends { stored: infer N extends string } ? N : K;

/**
 * A stored document of a declared resource: `id`, every declared field under its stored name
 * (optional and nullable: missing optional fields may be left out or null), and whatever else the
 * collection holds (link lists, the embedded properties record, fingerprints).
 */
export type DocOf<S extends { fields: Record<string, FieldSpec> }> = { id: number; [field: string]: unknown } & FieldsOf<S>;

/** The declared fields of a resource's documents under their stored names, without `id`. */
export type FieldsOf<S extends { fields: Record<string, FieldSpec> }> = {
  -readonly [K in keyof S['fields'] as K extends 'id' ? never : S['fields'][K] extends { visibility: 'writeOnly' } | { outer: string } ? never : StoredName<K, S['fields'][K]>]?: ValueOf<S['fields'][K]['type']> | null;
};
