/**
 * The catalog resources: exposed fields (seed order, plus `id`), their value types (used to coerce
 * filter values), relations, limits, scopes and actions.
 */
import type { CollectionName, LinkField } from './store/types.ts';

/** `decimal`: PostgreSQL decimal(8,2) in COCONUT, so values written through mutate keep 2 places. */
export type FieldType = 'string' | 'int' | 'number' | 'decimal' | 'bool' | 'status' | 'role' | 'string[]';
export type ResourceName = 'molecules' | 'collections' | 'citations' | 'organisms' | 'properties' | 'users';

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
}

export interface ResourceDef {
  name: ResourceName;
  collection: CollectionName | null;
  /** The Lomkit resource class name that detail operations report for relations to this resource. */
  className: string;
  fields: Record<string, FieldType>;
  /** Exposed name → stored name (the seed's `murko_framework` typo). */
  aliases?: Record<string, string>;
  /** Fields only the server writes (derived from the structure, or assigned once). */
  readOnly?: string[];
  /** Attributes mutate accepts but no operation outputs (a user's password). */
  writeOnly?: Record<string, FieldType>;
  /** Every ability on this resource, reading included, is the admin's (user management). */
  adminOnly?: boolean;
  relations: RelationDef[];
  limits: number[];
  scopes: string[];
  actions: ActionDef[];
}

const s = 'string' as const;
const i = 'int' as const;
const n = 'number' as const;
const b = 'bool' as const;
const d = 'decimal' as const;
const cls = (name: string) => `App\\Rest\\Resources\\${name}`;

export const STATUSES = ['DRAFT', 'INREVIEW', 'APPROVED', 'REVOKED'] as const;

export const molecules: ResourceDef = {
  name: 'molecules',
  collection: 'molecules',
  className: cls('MoleculeResource'),
  fields: {
    id: i,
    standard_inchi: s,
    standard_inchi_key: s,
    canonical_smiles: s,
    sugar_free_smiles: s,
    identifier: s,
    name: s,
    cas: 'string[]',
    iupac_name: s,
    murko_framework: s,
    structural_comments: s,
    name_trust_level: i,
    annotation_level: i,
    variants_count: i,
    status: 'status',
    active: b,
    has_variants: b,
    has_stereo: b,
    is_tautomer: b,
    is_parent: b,
    is_placeholder: b,
  },
  aliases: { murko_framework: 'murcko_framework' },
  readOnly: ['identifier', 'standard_inchi', 'standard_inchi_key'],
  relations: [
    { name: 'properties', kind: 'HasOne', target: 'properties', storage: 'embedded' },
    { name: 'organisms', kind: 'BelongsToMany', target: 'organisms', storage: 'local', field: 'organism_ids' },
    { name: 'citations', kind: 'BelongsToMany', target: 'citations', storage: 'local', field: 'citation_ids' },
    { name: 'collections', kind: 'BelongsToMany', target: 'collections', storage: 'local', field: 'collection_ids' },
  ],
  limits: [10, 25, 50],
  scopes: ['active', 'approved', 'draft', 'in_review', 'revoked'],
  actions: [
    { name: 'Submit For Review', uriKey: 'submit-for-review', fields: {}, standalone: false },
    { name: 'Approve', uriKey: 'approve', fields: {}, standalone: false },
    { name: 'Revoke', uriKey: 'revoke', fields: { reason: ['sometimes', 'string', 'max:1000'] }, standalone: false },
    { name: 'Recompute Properties', uriKey: 'recompute-properties', fields: {}, standalone: false },
  ],
};

export const properties: ResourceDef = {
  name: 'properties',
  collection: null,
  className: cls('PropertiesResource'),
  fields: {
    id: i,
    total_atom_count: i,
    heavy_atom_count: i,
    molecular_weight: n,
    exact_molecular_weight: n,
    molecular_formula: s,
    alogp: d,
    topological_polar_surface_area: d,
    rotatable_bond_count: i,
    hydrogen_bond_acceptors: i,
    hydrogen_bond_donors: i,
    hydrogen_bond_acceptors_lipinski: i,
    hydrogen_bond_donors_lipinski: i,
    lipinski_rule_of_five_violations: i,
    aromatic_rings_count: i,
    qed_drug_likeliness: d,
    formal_charge: i,
    fractioncsp3: d,
    number_of_minimal_rings: i,
    van_der_walls_volume: d,
    contains_sugar: b,
    contains_ring_sugars: b,
    contains_linear_sugars: b,
    murcko_framework: s,
    np_likeness: d,
    chemical_class: s,
    chemical_sub_class: s,
    chemical_super_class: s,
    direct_parent_classification: s,
    np_classifier_pathway: s,
    np_classifier_superclass: s,
    np_classifier_class: s,
    np_classifier_is_glycoside: b,
  },
  relations: [],
  limits: [10, 25, 50],
  scopes: [],
  actions: [],
};

const refresh: ActionDef = { name: 'Refresh Counts', uriKey: 'refresh-counts', fields: {}, standalone: false };
const back = (field: LinkField): RelationDef => ({ name: 'molecules', kind: 'BelongsToMany', target: 'molecules', storage: 'remote', field });

export const collections: ResourceDef = {
  name: 'collections',
  collection: 'collections',
  className: cls('CollectionResource'),
  fields: { id: i, title: s, description: s, identifier: s, url: s },
  relations: [back('collection_ids')],
  limits: [10, 25, 50],
  scopes: [],
  actions: [refresh],
};

export const citations: ResourceDef = {
  name: 'citations',
  collection: 'citations',
  className: cls('CitationResource'),
  fields: { id: i, doi: s, title: s, authors: s, citation_text: s },
  relations: [back('citation_ids')],
  limits: [10, 25, 50],
  scopes: [],
  actions: [],
};

export const organisms: ResourceDef = {
  name: 'organisms',
  collection: 'organisms',
  className: cls('OrganismResource'),
  fields: { id: i, name: s, iri: s, rank: s, molecule_count: i },
  readOnly: ['molecule_count'],
  relations: [back('organism_ids')],
  limits: [10, 25, 50],
  scopes: [],
  actions: [refresh],
};

/** Catalog users (COCONUT routes `users` too). The password is hashed on write and never output. */
export const users: ResourceDef = {
  name: 'users',
  collection: 'users',
  className: cls('UserResource'),
  fields: { id: i, email: s, name: s, role: 'role' },
  writeOnly: { password: s },
  adminOnly: true,
  relations: [],
  limits: [10, 25, 50],
  scopes: [],
  actions: [],
};

export const RESOURCES: Record<ResourceName, ResourceDef> = { molecules, collections, citations, organisms, properties, users };
/** The resources with HTTP routes. */
export const ROUTED: ResourceName[] = ['molecules', 'collections', 'citations', 'organisms', 'users'];

/** Stored field name of an exposed field. */
export const stored = (r: ResourceDef, field: string): string => r.aliases?.[field] ?? field;

export const relation = (r: ResourceDef, name: string): RelationDef | undefined => r.relations.find((x) => x.name === name);

/** Scope name → filter on stored fields (molecules' status shortcuts). */
export const SCOPES: Record<string, Record<string, unknown>> = {
  active: { active: true },
  approved: { status: 'APPROVED' },
  draft: { status: 'DRAFT' },
  in_review: { status: 'INREVIEW' },
  revoked: { status: 'REVOKED' },
};
