/**
 * Import readers: a file (TSV, CSV or SDF, optionally gzip-compressed) becomes a stream of
 * normalized `ImportRow`s. The layout is recognised from the header: the shipped LOTUS and
 * COCONUT files have exact column mappings (lotus.ts), anything else is mapped by common column
 * names (generic.ts). Rows are produced one at a time, so files of any size stream through.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { createGunzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../../shared/errors.ts';
import { coconutHeaderProblem, coconutRow, isCoconutFull, isCoconutLite, isCoconutSdf } from './coconut.ts';
import { delimitedRows } from './delimited.ts';
import { genericMapper, isStructureColumn, resolveColumns } from './generic.ts';
import {
  coconutCollections,
  isCoconutCollections,
  isLotusExport,
  isLotusSources,
  isLotusValidated,
  lotusExport,
  lotusSourceCollection,
  lotusSources,
  lotusValidated,
} from './lotus.ts';
import { isNatprodDump, natprodDumpRow } from './natprod-dump.ts';
import { sdfRecords } from './sdf.ts';
import { isZipMagic, zipEntries, zipEntryBytes } from './zip.ts';
import type { CollectionSeed, ImportFormat, ImportRow, RowMapper } from './types.ts';
import { text } from './types.ts';

export type { ImportRow } from './types.ts';

/** The shipped table of LOTUS source databases, used to title the validated set's collections. */
export const LOTUS_SOURCES_FILE = fileURLToPath(new URL('../data/lotus_source_databases.csv.gz', import.meta.url));

export function formatOf(path: string): ImportFormat {
  const name = basename(path).toLowerCase().replace(/\.gz$/, '');
  if (/\.(tsv|tab|txt)$/.test(name)) return 'tsv';
  if (name.endsWith('.csv')) return 'csv';
  if (/\.(sdf|sd|mol)$/.test(name)) return 'sdf';
  if (name.endsWith('.zip') && !basename(path).toLowerCase().endsWith('.gz')) return 'zip';
  throw new AppError(422, `Unsupported import file type: ${basename(path)} (expected .tsv, .csv or .sdf, optionally .gz, or a .zip holding one)`);
}

/** Text of a stream of bytes (UTF-8, split characters joined). */
async function* decoded(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const dec = new TextDecoder('utf-8');
  for await (const b of bytes) {
    const s = dec.decode(b, { stream: true });
    if (s) yield s;
  }
  const end = dec.decode();
  if (end) yield end;
}

/**
 * Opens an import file: its format and its text in chunks. A zip archive (by name or by its
 * magic bytes) must hold exactly one `.tsv/.csv/.sdf` file, whose name gives the format (COCONUT's
 * `coconut_csv-11-2026.zip` holds `coconut_csv-11-2026.csv`); a damaged or truncated archive is a
 * 422 before any row is read (zip.ts). `onBytes` hears the bytes of the file itself read so far.
 */
export async function openImport(path: string, onBytes?: (n: number) => void): Promise<{ format: 'tsv' | 'csv' | 'sdf'; entry?: string; chunks: AsyncGenerator<string> }> {
  const byName = formatOf(path);
  const fh = await open(path, 'r');
  const magic = Buffer.alloc(4);
  try {
    await fh.read(magic, 0, 4, 0);
  } finally {
    await fh.close();
  }
  if (byName !== 'zip' && !isZipMagic(magic)) return { format: byName, chunks: fileText(path, onBytes) };
  const entries = (await zipEntries(path)).filter((e) => {
    try {
      return formatOf(e.name) !== 'zip' && !e.name.toLowerCase().endsWith('.gz');
    } catch {
      return false;
    }
  });
  if (entries.length !== 1) {
    throw new AppError(422, `${basename(path)} must hold exactly one .tsv, .csv or .sdf file; it holds ${entries.length ? entries.map((e) => e.name).join(', ') : 'none'}`);
  }
  const [e] = entries;
  return { format: formatOf(e.name) as 'tsv' | 'csv' | 'sdf', entry: e.name, chunks: decoded(zipEntryBytes(path, e, onBytes)) };
}

/**
 * The file's text in chunks, gunzipped when it starts with the gzip magic bytes. `onBytes`
 * hears how many bytes of the file itself were read (for a progress bar).
 */
export async function* fileText(path: string, onBytes?: (n: number) => void): AsyncGenerator<string> {
  const fh = await open(path, 'r');
  const magic = Buffer.alloc(2);
  try {
    await fh.read(magic, 0, 2, 0);
  } finally {
    await fh.close();
  }
  // Small reads keep the byte count (progress) close to the rows actually consumed.
  const raw = createReadStream(path, { highWaterMark: 16 * 1024 });
  if (onBytes) raw.on('data', (b) => onBytes(b.length));
  const stream = magic[0] === 0x1f && magic[1] === 0x8b ? raw.pipe(createGunzip()) : raw;
  stream.setEncoding('utf8');
  for await (const chunk of stream) yield chunk as string;
}

export async function loadLotusSources(path = LOTUS_SOURCES_FILE): Promise<Map<string, CollectionSeed>> {
  const out = new Map<string, CollectionSeed>();
  for await (const { values } of delimitedRows(fileText(path), ',')) {
    const c = lotusSourceCollection(values);
    if (c?.identifier) out.set(c.identifier, c);
  }
  return out;
}

const collectionsOnly: RowMapper = (v) => {
  const title = text(v.title);
  if (!title) return { problem: 'no title' };
  return { collection: { title, identifier: text(v.identifier), url: text(v.url), description: text(v.description) } };
};

/** Picks the mapping for a delimited file from its header. */
export async function mapperFor(header: string[]): Promise<{ layout: string; map: RowMapper }> {
  if (isCoconutFull(header)) return { layout: 'coconut-csv', map: coconutRow };
  if (isCoconutLite(header)) return { layout: 'coconut-csv-lite', map: coconutRow };
  if (isNatprodDump(header)) return { layout: 'natprod-dump', map: natprodDumpRow };
  const notCoconut = coconutHeaderProblem(header);
  if (notCoconut) throw new AppError(422, notCoconut);
  if (isLotusExport(header)) return { layout: 'lotus-export', map: lotusExport };
  if (isLotusValidated(header)) return { layout: 'lotus-validated', map: lotusValidated(await loadLotusSources()) };
  if (isLotusSources(header)) return { layout: 'lotus-sources', map: lotusSources };
  if (isCoconutCollections(header)) return { layout: 'coconut-collections', map: coconutCollections };
  if (resolveColumns(header).structure) return { layout: 'generic', map: genericMapper(header) };
  if (header.some((h) => h.trim().toLowerCase() === 'title')) return { layout: 'collections', map: collectionsOnly };
  throw new AppError(422, `No structure column found in header: ${header.join(', ')}`);
}

export async function* parseDelimited(chunks: AsyncIterable<string>, delimiter: string): AsyncGenerator<ImportRow> {
  let map: RowMapper | undefined;
  let row = 0;
  for await (const rec of delimitedRows(chunks, delimiter)) {
    map ??= (await mapperFor(rec.header)).map;
    row++;
    yield { row, line: rec.line, ...map(rec.values) };
  }
}

export async function* parseSdf(chunks: AsyncIterable<string>): AsyncGenerator<ImportRow> {
  const mappers = new Map<string, RowMapper>();
  let row = 0;
  for await (const rec of sdfRecords(chunks)) {
    row++;
    const items = Object.keys(rec.data);
    if (isCoconutSdf(items) || isNatprodDump(items)) {
      yield { row, line: rec.line, ...(isCoconutSdf(items) ? coconutRow : natprodDumpRow)({ ...rec.data, molblock: rec.molblock }) };
      continue;
    }
    // The molblock is the structure; data items named like a structure column are left out.
    const keys = Object.keys(rec.data).filter((k) => !isStructureColumn(k));
    const sig = keys.join('\u0000');
    let map = mappers.get(sig);
    if (!map) {
      map = genericMapper([...keys, 'molblock']);
      mappers.set(sig, map);
    }
    const values: Record<string, string> = { molblock: rec.molblock };
    for (const k of keys) values[k] = rec.data[k];
    const mapped = map(values);
    if (mapped.molecule && !mapped.molecule.name) mapped.molecule.name = text(rec.molblock.split('\n')[0]);
    yield { row, line: rec.line, ...mapped };
  }
}

/** All rows of an import file, in file order. */
export async function* readImportFile(path: string): AsyncGenerator<ImportRow> {
  const { format, chunks } = await openImport(path);
  yield* format === 'sdf' ? parseSdf(chunks) : parseDelimited(chunks, format === 'tsv' ? '\t' : ',');
}
