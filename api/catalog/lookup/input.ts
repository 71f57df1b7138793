/**
 * Bulk look-up input (`POST /api/molecules/lookup`, MCP `lookup_molecules`): the list of queries
 * (text lines, a CSV column, or a JSON array), the options, and the kind of each query. Pure
 * functions, no I/O. See docs/catalog.md (Bulk look-up).
 *
 * Kinds, tried in this order on the trimmed text (`kind: auto`):
 * - `identifier`: a COCONUT identifier, `CNP` + digits (`CNP0123456`, any case);
 * - `inchikey`: a whole standard InChIKey (`XXXXXXXXXXXXXX-YYYYYYYYFV-P`, any case);
 * - `inchikey_block`: its first block, 14 capital letters (a trailing `-` allowed), unless made
 *   only of the letters of SMILES's organic atoms (`CCCCCCCCCCCCCC` is tetradecane);
 * - `smiles`: text made entirely of SMILES tokens (atoms of the organic subset, bracket atoms,
 *   bonds, ring closures, branches, dots), with at least one atom;
 * - `name`: anything else with a letter or a digit (a name, a synonym, an IUPAC name);
 * - `empty` (a blank line) and `unknown` (no letter or digit, control characters, or longer than
 *   QUERY_MAX characters): answered `unreadable`.
 * A `kind` other than `auto` reads every query as that kind.
 */
import { DEFAULT_FIELDS, exportFields } from '../export/format.ts';
import { Errors, HttpError } from '../schema/types.ts';

export const KINDS = ['auto', 'identifier', 'inchikey', 'smiles', 'name'] as const;
export type KindOption = (typeof KINDS)[number];
export type QueryKind = 'identifier' | 'inchikey' | 'inchikey_block' | 'smiles' | 'name' | 'empty' | 'unknown';

export const INPUT_FORMATS = ['lines', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** Longest query read; a longer line is `unknown` (unreadable). */
export const QUERY_MAX = 4096;

export interface LookupOptions {
  fields: string[];
  kind: KindOption;
  async: boolean;
}

/** Settings of the look-up (LOOKUP_MAX_ROWS, LOOKUP_UPLOAD_LIMIT, LOOKUP_SYNC_MAX). */
export interface LookupLimits {
  maxRows: number;
  uploadLimit: number;
  syncMax: number;
}

const CNP = /^CNP\d+(?:\.\d+)?$/i;
const FULL_KEY = /^[A-Za-z]{14}-[A-Za-z]{10}-[A-Za-z]$/;
const BLOCK = /^[A-Z]{14}-?$/;
const ORGANIC_ONLY = /^[BCNOPSFI]+$/;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
/** One SMILES token (sticky): bracket atom, organic-subset atom, ring closure, bond, branch, dot. */
const SMILES_TOKEN = /\[[^[\]\s]{1,40}\]|Cl|Br|[BCNOPSFI]|[bcnops]|\*|%\d\d|\d|[-=#$:/\\.()~]/y;
const ATOM = /^(?:\[|Cl|Br|[BCNOPSFIbcnops*])/;

/** Whether the whole text is a sequence of SMILES tokens with at least one atom. */
export function smilesSyntax(s: string): boolean {
  SMILES_TOKEN.lastIndex = 0;
  let atoms = 0;
  while (SMILES_TOKEN.lastIndex < s.length) {
    const at = SMILES_TOKEN.lastIndex;
    const m = SMILES_TOKEN.exec(s);
    if (!m || m.index !== at) return false;
    if (ATOM.test(m[0])) atoms++;
  }
  return atoms > 0;
}

/** The kind of a query (see the module comment) and the key it is matched by. */
export function classify(raw: string, kind: KindOption = 'auto'): { kind: QueryKind; key: string } {
  const s = raw.trim();
  if (!s) return { kind: 'empty', key: '' };
  if (s.length > QUERY_MAX || CONTROL.test(s)) return { kind: 'unknown', key: s };
  switch (kind) {
    case 'identifier':
      return { kind: 'identifier', key: s.toUpperCase() };
    case 'inchikey':
      if (FULL_KEY.test(s)) return { kind: 'inchikey', key: s.toUpperCase() };
      if (/^[A-Za-z]{14}-?$/.test(s)) return { kind: 'inchikey_block', key: s.slice(0, 14).toUpperCase() };
      return { kind: 'unknown', key: s };
    case 'smiles':
      return { kind: 'smiles', key: s };
    case 'name':
      return { kind: 'name', key: s };
  }
  if (CNP.test(s)) return { kind: 'identifier', key: s.toUpperCase() };
  if (FULL_KEY.test(s)) return { kind: 'inchikey', key: s.toUpperCase() };
  if (BLOCK.test(s) && !ORGANIC_ONLY.test(s.slice(0, 14))) return { kind: 'inchikey_block', key: s.slice(0, 14) };
  if (!/[\p{L}\p{N}]/u.test(s) && !s.includes('*')) return { kind: 'unknown', key: s };
  if (!/\s/.test(s) && smilesSyntax(s)) return { kind: 'smiles', key: s };
  return { kind: 'name', key: s };
}

// ---------------------------------------------------------------- options

const truthy = (v: unknown): boolean | undefined =>
  v === true || v === 'true' || v === '1' ? true : v === false || v === 'false' || v === '0' ? false : undefined;

/** A list option: an array (JSON), or comma-separated or JSON text (`textual`: a form field, the query string). */
function listOf(v: unknown, textual: boolean): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string' || !textual) return undefined;
  const t = v.trim();
  if (t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(t);
      return Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return t
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

/**
 * `fields`, `kind` and `async`, checked like an export's (Laravel-shaped 422s into `e`). `textual`:
 * the values come as text (form fields, query string), `fields` then also as `a,b,c`.
 */
export function readOptions(raw: Record<string, unknown>, e: Errors, textual = false): LookupOptions {
  const allowed = exportFields(false);
  let fields = DEFAULT_FIELDS;
  if (raw.fields !== undefined) {
    const list = listOf(raw.fields, textual);
    if (!list || !list.length) e.add('fields', 'The fields field must be a non-empty array of field names.');
    else {
      const seen = new Set<string>();
      list.forEach((f, i) => {
        if (typeof f !== 'string' || !allowed.includes(f)) e.add(`fields.${i}`, `The selected fields.${i} ${JSON.stringify(f)} is invalid.`);
        else if (seen.has(f)) e.add(`fields.${i}`, `The fields.${i} field has a duplicate value.`);
        else seen.add(f);
      });
      fields = list as string[];
    }
  }
  let kind: KindOption = 'auto';
  if (raw.kind !== undefined) {
    if (typeof raw.kind !== 'string' || !KINDS.includes(raw.kind as KindOption)) e.add('kind', `The selected kind ${JSON.stringify(raw.kind)} is invalid: use ${KINDS.join(', ')}.`);
    else kind = raw.kind as KindOption;
  }
  const asyncOpt = raw.async === undefined ? false : textual ? truthy(raw.async) : typeof raw.async === 'boolean' ? raw.async : undefined;
  if (asyncOpt === undefined) e.add('async', 'The async field must be true or false.');
  return { fields, kind, async: asyncOpt === true };
}

// ---------------------------------------------------------------- lists

const tooMany = (n: number | string, max: number) =>
  new HttpError(413, `The list has ${n} rows; at most ${max} are looked up at once (LOOKUP_MAX_ROWS): split it.`);

/** Plain text, one query per line; blank lines at the end are dropped, blank lines between are rows. */
export function readLines(text: string, maxRows: number): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines.length > maxRows) throw tooMany(lines.length, maxRows);
  return lines;
}

/** Records of RFC 4180 text (quotes, doubled quotes, CRLF or LF) with the given delimiter. */
export function csvRecords(text: string, delimiter: string, maxRecords: number): string[][] {
  const out: string[][] = [];
  let rec: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  const end = () => {
    rec.push(field);
    field = '';
    out.push(rec);
    rec = [];
    // Reading on past the limit (and a blank line or two at the end) would only cost memory.
    if (out.length > maxRecords + 2 && out[out.length - 1].some((f) => f.trim() !== '')) throw new RangeError('too many');
  };
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      rec.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
    } else field += c;
    i++;
  }
  if (field !== '' || rec.length) end();
  while (out.length && out[out.length - 1].every((f) => f.trim() === '')) out.pop();
  return out;
}

/** Header names recognised as the query column, in order of preference. */
const QUERY_COLUMNS = ['query', 'identifier', 'standard_inchi_key', 'inchikey', 'inchi_key', 'smiles', 'canonical_smiles', 'name', 'cnp', 'id'];

/**
 * The queries of a CSV (or TSV, or `;`-separated) list: the delimiter is the one of `,` TAB `;`
 * most frequent in the first line; `column` is a header name (any case) or a 1-based number;
 * without one, a single column, else the first header named like a query column
 * (QUERY_COLUMNS). `header: false` reads the first line as data (then `column` is a number).
 */
export function readCsv(text: string, opts: { column?: unknown; header?: unknown; maxRows: number }): string[] {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.slice(0, body.search(/\r|\n|$/));
  const counts = [',', '\t', ';'].map((d) => [d, first.split(d).length - 1] as const);
  const delimiter = counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const header = opts.header === undefined ? true : truthy(opts.header);
  if (header === undefined) throw new HttpError(422, 'The header field must be true or false.');
  let records: string[][];
  try {
    records = csvRecords(body, delimiter, opts.maxRows + (header ? 1 : 0));
  } catch (e) {
    if (e instanceof RangeError) throw tooMany(`more than ${opts.maxRows}`, opts.maxRows);
    throw e;
  }
  if (!records.length) return [];
  const names = header ? records[0].map((h) => h.trim()) : [];
  const width = Math.max(...records.slice(0, 50).map((r) => r.length));
  let col = -1;
  const column = opts.column === undefined || opts.column === '' ? undefined : opts.column;
  if (column !== undefined) {
    const asNumber = typeof column === 'number' ? column : typeof column === 'string' && /^\d+$/.test(column.trim()) ? Number(column) : NaN;
    const byName = typeof column === 'string' ? names.findIndex((h) => h.toLowerCase() === column.trim().toLowerCase()) : -1;
    if (byName >= 0) col = byName;
    else if (Number.isInteger(asNumber) && asNumber >= 1 && asNumber <= width) col = asNumber - 1;
    else {
      const have = header ? `its columns are ${names.map((h) => JSON.stringify(h)).join(', ')}` : `it has ${width} column(s)`;
      throw new HttpError(422, `The column ${JSON.stringify(column)} is not in the CSV: ${have} (name a header, or a number from 1).`);
    }
  } else if (width === 1) col = 0;
  else if (header) {
    for (const want of QUERY_COLUMNS) {
      col = names.findIndex((h) => h.toLowerCase() === want);
      if (col >= 0) break;
    }
  }
  if (col < 0) {
    const have = header ? `its columns are ${names.map((h) => JSON.stringify(h)).join(', ')}` : `it has ${width} columns`;
    throw new HttpError(422, `Choose the column of the queries with the column field: ${have}.`);
  }
  const data = header ? records.slice(1) : records;
  if (data.length > opts.maxRows) throw tooMany(data.length, opts.maxRows);
  return data.map((r) => r[col] ?? '');
}

/** The queries of a JSON `queries` array: strings only (anything else is a 422 naming it). */
export function readQueries(v: unknown, maxRows: number, e: Errors): string[] {
  if (!Array.isArray(v)) {
    e.add('queries', 'The queries field must be an array of strings.');
    return [];
  }
  if (v.length > maxRows) throw tooMany(v.length, maxRows);
  let bad = 0;
  v.forEach((q, i) => {
    if (typeof q !== 'string' && bad++ < 20) e.add(`queries.${i}`, `The queries.${i} field must be a string.`);
  });
  return v as string[];
}
