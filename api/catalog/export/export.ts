/**
 * Catalog exports (`POST /api/molecules/export`): validation of the request, the plan (which
 * molecules, in which order, how many), and the text of the export as an async generator that
 * reads the store one page at a time, so neither the api nor a job ever holds the whole result.
 *
 * Order: without `search.sorts`, the structure query's order when there is one (similarity: best
 * first; substructure and exact: by id), else by id ascending, paged by `id > last id`. With
 * sorts, the search's order (then id): the matching ids are listed once (ids only), and the
 * documents are read a page at a time. Every page is read with the search filter again, so a
 * molecule changed or deleted meanwhile is left out rather than exported stale.
 */
import { and, type StructureQuery, type StructureSearch, translateSearch, validateSearch, validateStructure } from '../search/index.ts';
import { molecules } from '../schema/resources.ts';
import type { CatalogStore, Doc } from '../store/types.ts';
import { COCONUT_PROVENANCE, coconutHeader, coconutRecord, isCoconutLayout } from './coconut.ts';
import { loadProvenance } from './provenance.ts';
import { idPages } from '../store/id-pages.ts';
import { Errors, HttpError, type SearchInput } from '../schema/types.ts';
import {
  DEFAULT_FIELDS,
  EXTENSIONS,
  FORMATS,
  SIMILARITY,
  csvRecord,
  csvRow,
  exportFields,
  sdfRecord,
  smilesLine,
  type ExportFormat,
  type Provenance,
} from './format.ts';

export interface ExportRequest {
  search: SearchInput;
  structure?: StructureQuery;
  format: ExportFormat;
  fields: string[];
  async: boolean;
}

/** Molecules read from the store at once. */
export const EXPORT_PAGE = 500;
/** The keys of an export body and of its `search`. */
const BODY_KEYS = ['search', 'structure', 'format', 'fields', 'async'];
const SEARCH_KEYS = ['filters', 'scopes', 'sorts'];

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Laravel-shaped 422s naming every problem; unknown keys are refused. */
export function validateExportRequest(body: unknown): ExportRequest {
  const e = new Errors();
  if (!isObj(body)) {
    e.add('body', 'The request body must be an object.');
    e.throwIfAny();
  }
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!BODY_KEYS.includes(k)) e.add(k, `The ${k} field is prohibited.`);

  let format: ExportFormat = 'csv';
  if (b.format === undefined || b.format === null || b.format === '') e.add('format', 'The format field is required: use smi, sdf or csv, sdf3d for an SDF with 3D coordinates, or coconut_csv or coconut_csv_lite for the COCONUT download layouts.');
  else if (typeof b.format !== 'string' || !FORMATS.includes(b.format as ExportFormat)) {
    e.add('format', `The selected format ${JSON.stringify(b.format)} is invalid: use smi, sdf or csv, sdf3d for an SDF with 3D coordinates, or coconut_csv or coconut_csv_lite for the COCONUT download layouts.`);
  } else format = b.format as ExportFormat;

  let search: SearchInput = {};
  if (b.search !== undefined && b.search !== null) {
    if (isObj(b.search)) {
      for (const k of Object.keys(b.search)) {
        if (!SEARCH_KEYS.includes(k)) e.add(`search.${k}`, `The search.${k} field is prohibited in an export: it takes filters, scopes and sorts (columns are chosen with fields).`);
      }
    }
    search = validateSearch(molecules, b.search, 'search', e);
  }

  const structure = b.structure === undefined ? undefined : validateStructure(b.structure, e, 'structure.');

  const allowed = exportFields(structure?.type === 'similarity');
  let fields = structure?.type === 'similarity' ? [...DEFAULT_FIELDS, SIMILARITY] : DEFAULT_FIELDS;
  if (b.fields !== undefined) {
    if (format === 'smi') e.add('fields', 'The fields field is prohibited when format is smi (its lines are SMILES<TAB>identifier).');
    else if (isCoconutLayout(format)) e.add('fields', `The fields field is prohibited when format is ${format} (its columns are COCONUT's).`);
    else if (!Array.isArray(b.fields) || !b.fields.length) e.add('fields', 'The fields field must be a non-empty array of field names.');
    else {
      const seen = new Set<string>();
      b.fields.forEach((f, i) => {
        if (typeof f !== 'string' || !allowed.includes(f)) {
          const hint = f === SIMILARITY ? ' (only with a structure query of type similarity)' : '';
          e.add(`fields.${i}`, `The selected fields.${i} ${JSON.stringify(f)} is invalid${hint}.`);
        } else if (seen.has(f)) e.add(`fields.${i}`, `The fields.${i} field has a duplicate value.`);
        seen.add(f as string);
      });
      fields = b.fields as string[];
    }
  }

  if (b.async !== undefined && typeof b.async !== 'boolean') e.add('async', 'The async field must be true or false.');
  e.throwIfAny();
  if (isCoconutLayout(format)) fields = [...COCONUT_PROVENANCE];
  return { search, structure, format, fields, async: b.async === true };
}

export interface ExportPlan {
  format: ExportFormat;
  fields: string[];
  /** Molecules matching when the plan was made (the export may differ by writes made since). */
  total: number;
  /** Similarity scores by id (a similarity structure query). */
  scores?: Map<number, number>;
  pages(signal?: AbortSignal): AsyncGenerator<Doc[]>;
  /** The provenance columns of a page (undefined when `fields` has none). */
  provenance(docs: Doc[]): Promise<Provenance | undefined>;
}

export interface PlanCtx {
  store: CatalogStore;
  structure?: StructureSearch;
  /** Molecules per page (default EXPORT_PAGE; tests use small pages). */
  pageSize?: number;
}

/**
 * Resolves the search and the structure query (their 422s come from here, before any answer is
 * sent) and counts the molecules.
 */
export async function planExport(req: ExportRequest, ctx: PlanCtx): Promise<ExportPlan> {
  const { store } = ctx;
  const size = ctx.pageSize ?? EXPORT_PAGE;
  if ((req.structure || hasStructureFilter(req.search)) && !ctx.structure) throw new HttpError(422, 'Structure search is not available here.');
  const q = await translateSearch(molecules, req.search, { store, structure: ctx.structure?.resolve });
  const filter = q.filter;
  const sorted = !!req.search.sorts?.length;

  let ids: number[] | undefined;
  let scores: Map<number, number> | undefined;
  if (req.structure) {
    const hits = await ctx.structure!.allIds(req.structure);
    if (hits.scores) scores = new Map(hits.ids.map((id, i) => [id, hits.scores![i]]));
    if (sorted) {
      const hitSet = new Set(hits.ids);
      ids = (await store.find('molecules', filter, { sort: q.sort, fields: ['id'] })).map((d) => d.id).filter((id) => hitSet.has(id));
    } else if (!Object.keys(filter).length) {
      ids = hits.ids;
    } else {
      ids = [];
      for (let i = 0; i < hits.ids.length; i += size * 4) {
        const chunk = hits.ids.slice(i, i + size * 4);
        const keep = new Set((await store.find('molecules', and([filter, { id: { $in: chunk } }]), { fields: ['id'] })).map((d) => d.id));
        for (const id of chunk) if (keep.has(id)) ids.push(id);
      }
    }
  } else if (sorted) {
    ids = (await store.find('molecules', filter, { sort: q.sort, fields: ['id'] })).map((d) => d.id);
  }
  const total = ids ? ids.length : await store.count('molecules', filter);

  async function* byIdList(list: number[], signal?: AbortSignal): AsyncGenerator<Doc[]> {
    for (let i = 0; i < list.length; i += size) {
      if (signal?.aborted) return;
      const chunk = list.slice(i, i + size);
      const docs = await store.find('molecules', and([filter, { id: { $in: chunk } }]));
      const byId = new Map(docs.map((d) => [d.id, d]));
      yield chunk.map((id) => byId.get(id)).filter((d): d is Doc => !!d);
    }
  }
  async function* byKeyset(signal?: AbortSignal): AsyncGenerator<Doc[]> {
    for await (const docs of idPages(store, 'molecules', filter, size)) {
      if (signal?.aborted) return;
      yield docs;
    }
  }
  return {
    format: req.format,
    fields: req.fields,
    total,
    scores,
    pages: (signal) => (ids ? byIdList(ids, signal) : byKeyset(signal)),
    provenance: (docs) => loadProvenance(store, docs, req.fields),
  };
}

function hasStructureFilter(s: SearchInput): boolean {
  const walk = (fs: SearchInput['filters']): boolean => !!fs?.some((f) => ['substructure', 'similar', 'exact'].includes(f.operator ?? '') || walk(f.nested));
  return walk(s.filters);
}

/** Molblocks for SMILES, in order (null where a structure cannot be read, or, for 3D, embedded). */
export type Molblocks = (smiles: string[], signal?: AbortSignal) => Promise<(string | null)[]>;

export interface ExportTextOptions {
  signal?: AbortSignal;
  /** Told the molecules read so far, and of those the ones left out of an `sdf3d` export, after each page. */
  onRows?: (rows: number, skipped: number) => void;
  /** 3D molblocks (format `sdf3d`); without it an `sdf3d` export fails. */
  molblocks3d?: Molblocks;
}

/** A molecule's stored SMILES ('' when it has none). */
export const smilesOf = (d: Doc): string => (typeof d.canonical_smiles === 'string' ? d.canonical_smiles : '');

/**
 * The export's text, a piece per page (plus the CSV header). `onRows` is told the molecules
 * read so far after each page. In `sdf3d`, a molecule without 3D coordinates (its embedding
 * failed, or it has no structure) is left out and counted as skipped: every record of a 3D SDF
 * has real 3D coordinates.
 */
export async function* exportText(plan: ExportPlan, molblocks: Molblocks, opts: ExportTextOptions = {}): AsyncGenerator<string> {
  const { format, fields, scores } = plan;
  if (format === 'sdf3d' && !opts.molblocks3d) throw new Error('3D coordinates are not available here');
  if (format === 'csv') yield csvRow(fields);
  else if (isCoconutLayout(format)) yield coconutHeader(format);
  let rows = 0;
  let skipped = 0;
  for await (const docs of plan.pages(opts.signal)) {
    let out = '';
    const prov = format === 'smi' ? undefined : await plan.provenance(docs);
    if (format === 'smi') for (const d of docs) out += smilesLine(d);
    else if (format === 'csv') for (const d of docs) out += csvRecord(d, fields, scores, prov);
    else if (isCoconutLayout(format)) for (const d of docs) out += coconutRecord(d, format, prov);
    else if (format === 'sdf3d') {
      const blocks = await opts.molblocks3d!(docs.map(smilesOf), opts.signal);
      docs.forEach((d, i) => {
        const b = blocks[i];
        if (b) out += sdfRecord(d, b, fields, scores, prov);
        else skipped++;
      });
    } else {
      const blocks = await molblocks(docs.map(smilesOf), opts.signal);
      docs.forEach((d, i) => (out += sdfRecord(d, blocks[i] ?? null, fields, scores, prov)));
    }
    rows += docs.length;
    if (out) yield out;
    opts.onRows?.(rows, skipped);
  }
}

export function exportFilename(format: ExportFormat, when = new Date()): string {
  const stamp = when.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const kind = format === 'sdf3d' ? '-3d' : isCoconutLayout(format) ? `-${format}` : '';
  return `molecules-${stamp}${kind}.${EXTENSIONS[format]}`;
}
