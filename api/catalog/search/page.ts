/**
 * What every answer of `POST /api/search` is made of: Laravel's paginator around one page of
 * records, and the record of each hit.
 *
 * The paginator is Laravel's length-aware one as JSON (`LengthAwarePaginator::toArray`, Laravel
 * 12, which COCONUT runs): the page's records with `current_page, first_page_url, from,
 * last_page, last_page_url, links, next_page_url, path, per_page, prev_page_url, to, total`. The
 * `links` follow Laravel's URL window (3 pages on each side of the current one; below 14 pages all
 * of them), its labels (`&laquo; Previous`, `Next &raquo;`) and, since Laravel 12.23, a `page` on
 * each link. Page URLs are `<path>?page=N`: the page travels in the POST body, so they name the
 * page rather than make a request that could fetch it (COCONUT's own are `/?page=N` for most
 * search types). `offset` (COCONUT validates it and ignores it) skips that many results before
 * the first page: `from` and `to` count from the start of the whole result list, and `last_page`
 * covers what remains after the offset.
 *
 * The record of a hit (`coconutRow`) holds the columns COCONUT's search answers (`identifier,
 * canonical_smiles, annotation_level, name, iupac_name, organism_count, citation_count,
 * geo_count, collection_count, active`), in that order, preceded by natprod's `id` and followed
 * by the `standard_inchi_key` (COCONUT's tag search answers whole molecule rows, which hold both)
 * and, for structure searches, the `similarity`. The counts are those of the molecule's links;
 * natprod keeps no geographic locations, so `geo_count` is null. natprod's own structure form
 * answers the records of `/api/molecules/search` instead (structure/answer.ts).
 */
import type { Doc } from '../store/types.ts';

export interface PageLink {
  url: string | null;
  label: string;
  page?: number | null;
  active: boolean;
}

export interface LaravelPaginator<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

const ON_EACH_SIDE = 3;

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Laravel's UrlWindow: the page numbers shown, `null` for each `...`. */
export function pageWindow(current: number, last: number): (number | null)[] {
  if (last < ON_EACH_SIDE * 2 + 8) return range(1, last);
  const window = ON_EACH_SIDE + 4;
  const finish = range(last - 1, last);
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), null, ...finish];
  if (current > last - window) return [...range(1, 2), null, ...range(last - (window + (ON_EACH_SIDE - 1)), last)];
  return [...range(1, 2), null, ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), null, ...finish];
}

export interface PageInput<T> {
  rows: T[];
  total: number;
  perPage: number;
  page: number;
  offset?: number;
  /** Path of the page URLs (absolute when the request's origin is known). */
  path: string;
}

export function paginate<T>({ rows, total, perPage, page, offset = 0, path }: PageInput<T>): LaravelPaginator<T> {
  const last = Math.max(1, Math.ceil(Math.max(0, total - offset) / perPage));
  const url = (n: number) => `${path}?page=${Math.max(1, n)}`;
  const start = offset + (page - 1) * perPage;
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < last ? url(page + 1) : null;
  const links: PageLink[] = [
    { url: prev, label: '&laquo; Previous', page: page > 1 ? page - 1 : null, active: false },
    ...pageWindow(page, last).map((n): PageLink => (n === null ? { url: null, label: '...', active: false } : { url: url(n), label: String(n), page: n, active: n === page })),
    { url: next, label: 'Next &raquo;', page: page < last ? page + 1 : null, active: false },
  ];
  return {
    current_page: page,
    data: rows,
    first_page_url: url(1),
    from: rows.length ? start + 1 : null,
    last_page: last,
    last_page_url: url(last),
    links,
    next_page_url: next,
    path,
    per_page: perPage,
    prev_page_url: prev,
    to: rows.length ? start + rows.length : null,
    total,
  };
}

export interface CoconutRow {
  id: number;
  identifier: unknown;
  canonical_smiles: unknown;
  annotation_level: unknown;
  name: unknown;
  iupac_name: unknown;
  organism_count: number;
  citation_count: number;
  geo_count: null;
  collection_count: number;
  active: unknown;
  standard_inchi_key: unknown;
  similarity?: number;
}

export const ROW_FIELDS = ['identifier', 'canonical_smiles', 'annotation_level', 'name', 'iupac_name', 'active', 'standard_inchi_key', 'organism_ids', 'citation_ids', 'collection_ids'];

const n = (v: unknown) => (Array.isArray(v) ? v.length : 0);
const or = (v: unknown) => (v === undefined ? null : v);

export function coconutRow(d: Doc, similarity?: number): CoconutRow {
  return {
    id: d.id,
    identifier: or(d.identifier),
    canonical_smiles: or(d.canonical_smiles),
    annotation_level: or(d.annotation_level),
    name: or(d.name),
    iupac_name: or(d.iupac_name),
    organism_count: n(d.organism_ids),
    citation_count: n(d.citation_ids),
    geo_count: null,
    collection_count: n(d.collection_ids),
    active: or(d.active),
    standard_inchi_key: or(d.standard_inchi_key),
    ...(similarity === undefined ? {} : { similarity }),
  };
}
