/** Request shapes of the catalog operations (after validation). */
export interface FilterInput {
  field?: string;
  operator?: string;
  value?: unknown;
  type?: 'and' | 'or';
  nested?: FilterInput[];
  /** Structure operators (`substructure`, `similar`, `exact` on molecules' canonical_smiles). */
  threshold?: number;
  use_chirality?: boolean;
  query_type?: 'smiles' | 'smarts';
}

export interface IncludeInput extends SearchInput {
  relation: string;
}

export interface AggregateInput {
  relation: string;
  type: 'count' | 'min' | 'max' | 'avg' | 'sum' | 'exists';
  field?: string;
  alias?: string;
  filters?: FilterInput[];
}

export interface SearchInput {
  scopes?: { name: string; parameters?: unknown[] }[];
  filters?: FilterInput[];
  sorts?: { field: string; direction?: 'asc' | 'desc' }[];
  selects?: { field: string }[];
  includes?: IncludeInput[];
  aggregates?: AggregateInput[];
  gates?: string[];
  page?: number;
  limit?: number;
}

export type Role = 'reader' | 'curator' | 'admin';
export const ROLES: Role[] = ['reader', 'curator', 'admin'];

export interface CatalogUser {
  id: number;
  email: string;
  role: Role;
  tokenId?: number;
}

/** A Laravel-shaped validation failure: dotted path → messages. */
export class ValidationError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('validation');
  }
  get body() {
    const all = Object.values(this.errors).flat();
    const more = all.length - 1;
    const message = more > 0 ? `${all[0]} (and ${more} more ${more === 1 ? 'error' : 'errors'})` : all[0];
    return { message, errors: this.errors };
  }
}

/** HTTP error with a Laravel `{message}` body (401, 403, 404, 405). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export class Errors {
  readonly map: Record<string, string[]> = {};
  add(key: string, msg: string) {
    (this.map[key] ??= []).push(msg);
  }
  get any() {
    return Object.keys(this.map).length > 0;
  }
  throwIfAny() {
    if (this.any) throw new ValidationError(this.map);
  }
}
