/**
 * Export formats of catalog molecules (`POST /api/molecules/export`): the fields a client may ask
 * for, and the writers of SMILES lines, SDF records and CSV rows. Pure functions, no I/O.
 *
 * - SMILES: `SMILES<TAB>identifier` per line (`\n`), the identifier falling back to the numeric id.
 * - SDF: the molblock (V2000, 2D coordinates, computed on the chemistry threads; `sdf3d`: 3D
 *   coordinates from `generate_3d_coordinates`) with the identifier as its title line, one
 *   `> <field>` data item (SD tag) per field, `$$$$`.
 * - `coconut_csv`, `coconut_csv_lite`: COCONUT's own download layouts (./coconut.ts).
 * - CSV: RFC 4180 (CRLF, a header row, fields with `,` `"` CR or LF quoted, quotes doubled), and
 *   defused against spreadsheet formula injection: a text cell that starts with `=`, `+`, `-`,
 *   `@`, TAB or CR gets a leading `'` (OWASP's advice), so Excel or LibreOffice shows it as text
 *   instead of evaluating it. Numbers are written as numbers (a negative `alogp` stays `-0.5`).
 */
import { exportDefaults, molecules, properties, stored } from '../schema/resources.ts';
import type { Doc } from '../store/types.ts';

export const FORMATS = ['smi', 'sdf', 'sdf3d', 'csv', 'coconut_csv', 'coconut_csv_lite'] as const;
export type ExportFormat = (typeof FORMATS)[number];

export const MEDIA_TYPES: Record<ExportFormat, string> = {
  smi: 'text/plain; charset=utf-8',
  sdf: 'chemical/x-mdl-sdfile',
  sdf3d: 'chemical/x-mdl-sdfile',
  csv: 'text/csv; charset=utf-8',
  coconut_csv: 'text/csv; charset=utf-8',
  coconut_csv_lite: 'text/csv; charset=utf-8',
};

/** File name extension of each format (both SDF formats are `.sdf` files). */
export const EXTENSIONS: Record<ExportFormat, string> = { smi: 'smi', sdf: 'sdf', sdf3d: 'sdf', csv: 'csv', coconut_csv: 'csv', coconut_csv_lite: 'csv' };

/**
 * Provenance columns, read from the documents a molecule links to (`organism_ids`,
 * `citation_ids`, `collection_ids`), one store read per page and linked collection:
 * - `organisms`: the organisms' names joined by `|`;
 * - `organism_ncbi_ids`: their NCBI taxon ids (`ncbi_id`), `|`-joined in the same order (an
 *   organism without one leaves its place empty, so the n-th id is the n-th organism's);
 * - `citation_dois`: the citations' DOIs joined by `|` (citations without a DOI are left out);
 * - `collections`: the collections' titles joined by `|`.
 */
export const PROVENANCE_FIELDS = ['organisms', 'organism_ncbi_ids', 'citation_dois', 'collections'] as const;
export type ProvenanceField = (typeof PROVENANCE_FIELDS)[number];
export const isProvenance = (f: string): f is ProvenanceField => (PROVENANCE_FIELDS as readonly string[]).includes(f);
/** Provenance values of a page's molecules, by molecule id. */
export type Provenance = Map<number, Partial<Record<ProvenanceField, string>>>;
/** What joins the names, ids or DOIs of one provenance cell. */
export const LIST_SEPARATOR = '|';

/** A Tanimoto score column, offered when the export is filtered by a similarity query. */
export const SIMILARITY = 'similarity';

/** The default columns (CSV) and data items (SDF): the fields declared with an `export` rank. */
export const DEFAULT_FIELDS = exportDefaults();

// `molecule_id` (the molecule's own `id`, not stored in the record) is the `id` column already
export const PROPERTY_FIELDS = Object.keys(properties.fields).filter((f) => f !== 'id' && !properties.outer?.[f]);

/**
 * Every field name an export accepts: the molecule's exposed fields, the properties' fields by
 * their own name (`molecular_weight`) or by path (`properties.molecular_weight`). A property named
 * like a molecule field (`murcko_framework` is also the molecule's stored framework) is reachable
 * by its path.
 */
export function exportFields(withSimilarity = false): string[] {
  const mol = Object.keys(molecules.fields);
  const bare = PROPERTY_FIELDS.filter((f) => !mol.includes(f));
  return [...mol, ...bare, ...PROPERTY_FIELDS.map((f) => `properties.${f}`), ...PROVENANCE_FIELDS, ...(withSimilarity ? [SIMILARITY] : [])];
}

/** The value of an export field in a stored molecule (`scores`: similarity by id; `prov`: the page's provenance). */
export function fieldValue(doc: Doc, field: string, scores?: Map<number, number>, prov?: Provenance): unknown {
  if (field === SIMILARITY) return scores?.get(doc.id) ?? null;
  if (isProvenance(field)) return prov?.get(doc.id)?.[field] ?? '';
  const props = (doc.properties ?? null) as Record<string, unknown> | null;
  if (field.startsWith('properties.')) return props?.[field.slice('properties.'.length)] ?? null;
  if (Object.hasOwn(molecules.fields, field)) return doc[stored(molecules, field)] ?? null;
  return props?.[field] ?? null;
}

/** A value as text: lists joined with `; `, null as the empty string. */
export function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(text).join('; ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** One line, with no control characters: what may go in a SMILES line, an SDF title or data line. */
const oneLine = (s: string) => s.replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, ' ').trim();

// ---------------------------------------------------------------- SMILES

/** `SMILES<TAB>identifier\n`, or '' for a molecule without a structure. */
export function smilesLine(doc: Doc): string {
  const smi = typeof doc.canonical_smiles === 'string' ? oneLine(doc.canonical_smiles) : '';
  if (!smi) return '';
  return `${smi}\t${oneLine(text(doc.identifier)) || String(doc.id)}\n`;
}

// ---------------------------------------------------------------- SDF

/** A molblock with no atoms, for a molecule whose structure is missing or unreadable. */
export const EMPTY_MOLBLOCK = '\n     natprod\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n';

/** One SDF record: `molblock` (from the chemistry threads, or null) with its title and data items. */
export function sdfRecord(doc: Doc, molblock: string | null, fields: readonly string[], scores?: Map<number, number>, prov?: Provenance): string {
  const lines = (molblock ?? EMPTY_MOLBLOCK).replace(/\r\n?/g, '\n').split('\n');
  // Line 1 of a molfile is the molecule's name (at most 80 characters).
  lines[0] = (oneLine(text(doc.identifier)) || String(doc.id)).slice(0, 80);
  let body = lines.join('\n');
  if (!body.endsWith('\n')) body += '\n';
  // Everything after `M  END` belongs to the molfile's properties block only up to it.
  const end = body.indexOf('M  END\n');
  if (end >= 0) body = body.slice(0, end + 'M  END\n'.length);
  let out = body;
  for (const f of fields) {
    let v = oneLine(text(fieldValue(doc, f, scores, prov)));
    // A data line must not end the record for a reader that looks for `$$$$` lines, nor be blank
    // (a blank line ends the data item).
    if (v.startsWith('$$$$')) v = ` ${v}`;
    out += `> <${f}>\n${v}\n\n`;
  }
  return `${out}$$$$\n`;
}

// ---------------------------------------------------------------- CSV

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: numbers as they are; text defused (leading `'`) and quoted when needed. */
export function csvCell(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  let s = text(v);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function csvRecord(doc: Doc, fields: readonly string[], scores?: Map<number, number>, prov?: Provenance): string {
  return csvRow(fields.map((f) => fieldValue(doc, f, scores, prov)));
}
