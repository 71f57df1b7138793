/**
 * Exports in COCONUT's own download layouts (`format: coconut_csv` and `coconut_csv_lite`), so that
 * a file natprod writes is read by COCONUT users' scripts and by natprod's own COCONUT importer
 * (api/catalog/import/coconut.ts, whose column lists these are). The values are written as
 * COCONUT's export writes them (Python's `csv.writer` over psycopg2 values): NULL empty, booleans
 * `True`/`False`, floats as Python prints them (`190.0`), `numeric(8,2)` columns with two
 * decimals, NPClassifier lists as Python prints a list (`['Alkaloids']`), organisms (distinct
 * names), collections (titles), DOIs, synonyms and CAS numbers sorted and joined with `|`.
 *
 * Unlike natprod's own CSV, cells are not defused against spreadsheet formulas: the layout is
 * COCONUT's data format for programs, and a leading `'` would change a name a program reads back.
 * Molecules without an identifier are left out (COCONUT exports only identified molecules), and so
 * is natprod's `COCONUT` collection (every COCONUT import links to it; the file itself says so).
 */
import { COCONUT_COLLECTION, FULL_COLUMNS, LIST_COLUMNS, LITE_COLUMNS } from '../import/coconut.ts';
import type { Doc } from '../store/types.ts';
import { LIST_SEPARATOR, type Provenance } from './format.ts';

export const COCONUT_LAYOUTS = { coconut_csv: FULL_COLUMNS, coconut_csv_lite: LITE_COLUMNS } as const;
export type CoconutLayout = keyof typeof COCONUT_LAYOUTS;
export const isCoconutLayout = (f: string): f is CoconutLayout => Object.hasOwn(COCONUT_LAYOUTS, f);

/** The provenance an export in these layouts reads (api/catalog/export/provenance.ts). */
export const COCONUT_PROVENANCE = ['organisms', 'citation_dois', 'collections'] as const;

/** Double precision columns (Python prints `190.0`) and numeric(8,2) ones (two decimals). */
const FLOATS = new Set(['molecular_weight', 'exact_molecular_weight']);
const DECIMALS = new Set(['alogp', 'topological_polar_surface_area', 'qed_drug_likeliness', 'fractioncsp3', 'van_der_walls_volume', 'np_likeness']);

/** A float as Python's `repr` writes it: integral values keep `.0`; exponents from 1e16 and below 1e-4. */
export function pyFloat(v: number): string {
  if (!Number.isFinite(v)) return v !== v ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return `${v}.0`;
  const abs = Math.abs(v);
  if (abs >= 1e16 || (abs > 0 && abs < 1e-4)) {
    const [m, e] = v.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(v);
}

/** A string as Python's `repr` writes it: single quotes unless it holds one and no double quote. */
export function pyStr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return q + out + q;
}

/** A list of strings as Python's `str()` of a list writes it. */
export const pyList = (l: readonly string[]) => `[${l.map(pyStr).join(', ')}]`;

/** One value of a COCONUT column as COCONUT's export writes it. */
export function coconutValue(col: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) {
    const strings = v.filter((x) => x !== null && x !== undefined).map(String);
    if (!strings.length) return '';
    return LIST_COLUMNS.has(col) ? pyList(strings) : [...new Set(strings)].sort().join(LIST_SEPARATOR);
  }
  if (typeof v === 'number') return FLOATS.has(col) ? pyFloat(v) : DECIMALS.has(col) ? v.toFixed(2) : Number.isInteger(v) ? String(v) : pyFloat(v);
  if (LIST_COLUMNS.has(col)) return pyList([String(v)]);
  return String(v);
}

/** A `|`-joined provenance cell, sorted, distinct, without natprod's own COCONUT collection. */
function provenanceCell(cell: string | undefined, drop?: string): string {
  const parts = (cell ?? '').split(LIST_SEPARATOR).map((s) => s.trim()).filter((s) => s && s !== drop);
  return [...new Set(parts)].sort().join(LIST_SEPARATOR);
}

/** The stored value behind each COCONUT column of a molecule. */
function columnValue(doc: Doc, col: string, prov: Provenance | undefined): string {
  const p = prov?.get(doc.id);
  switch (col) {
    case 'id': return String(doc.id);
    case 'organisms': return provenanceCell(p?.organisms);
    case 'collections': return provenanceCell(p?.collections, COCONUT_COLLECTION.title);
    case 'dois': return provenanceCell(p?.citation_dois);
    default: {
      const props = (doc.properties ?? {}) as Record<string, unknown>;
      const v = Object.hasOwn(doc, col) && col !== 'properties' ? doc[col] : props[col];
      return coconutValue(col, v);
    }
  }
}

/** A cell as Python's `csv.writer` quotes it (QUOTE_MINIMAL: `,`, `"`, CR or LF). */
const pyCsvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export const coconutHeader = (layout: CoconutLayout) => `${COCONUT_LAYOUTS[layout].join(',')}\r\n`;

/** One molecule's row, or '' for a molecule COCONUT's files would not hold (no identifier). */
export function coconutRecord(doc: Doc, layout: CoconutLayout, prov: Provenance | undefined): string {
  if (typeof doc.identifier !== 'string' || !doc.identifier) return '';
  return `${COCONUT_LAYOUTS[layout].map((c) => pyCsvCell(columnValue(doc, c, prov))).join(',')}\r\n`;
}
