/**
 * Dated full dumps of the catalog (COCONUT's monthly download files): every molecule, read once
 * from the store a page at a time, written to up to four files at once, plus a manifest:
 *
 * - `molecules-2d.sdf`: V2000 molblocks with 2D coordinates, SD tags = SDF_FIELDS;
 * - `molecules-3d.sdf` (optional, slow): 3D coordinates of `/convert/mol3D`; a molecule whose
 *   embedding fails is left out and counted (`skipped` in its manifest entry);
 * - `molecules-lite.csv`: the default export columns (LITE_FIELDS);
 * - `molecules-full.csv`: every molecule and property field plus the provenance columns;
 * - `manifest.json`: date, software version, molecules, and per file its records, size and SHA-256.
 *
 * Each data file is also written gzip-compressed beside it (`molecules-2d.sdf.gz`, ...), from the
 * same bytes as they are written (writer.ts), with its own size and SHA-256 in the file's manifest
 * entry (`gz`): a download of the plain name by a client that accepts gzip is sent from it
 * (routes.ts), and it can be fetched by its own name.
 *
 * A dump is built in a staging directory (`<dir>/.staging-<date>-<pid>-<random>/`), each file
 * through an AtomicFile (temporary name, fsync, rename), the manifest last; the staging directory
 * is then renamed to `<dir>/<date>/`. A dump that fails or is interrupted leaves no file under a
 * final name, and `<dir>/<date>/` only ever holds a complete dump. Listing reads the manifests.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogStore, Doc } from '../store/types.ts';
import { planExport, smilesOf, type Molblocks } from '../export/export.ts';
import { loadProvenance } from '../export/provenance.ts';
import { DEFAULT_FIELDS, MEDIA_TYPES, PROPERTY_FIELDS, PROVENANCE_FIELDS, csvRecord, csvRow, sdfRecord } from '../export/format.ts';
import { molecules } from '../schema/resources.ts';
import { AtomicFile, syncDir, writeAtomic } from './writer.ts';

/** A dump's date: `YYYY-MM-DD`, also its directory name. */
export const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const MANIFEST = 'manifest.json';

export const LITE_FIELDS: readonly string[] = DEFAULT_FIELDS;
export const FULL_FIELDS: readonly string[] = (() => {
  const mol = Object.keys(molecules.fields);
  return [...mol, ...PROPERTY_FIELDS.map((f) => (mol.includes(f) ? `properties.${f}` : f)), ...PROVENANCE_FIELDS];
})();
export const SDF_FIELDS: readonly string[] = [...DEFAULT_FIELDS, ...PROVENANCE_FIELDS];

export type DumpKind = 'sdf-2d' | 'sdf-3d' | 'csv-lite' | 'csv-full';
export const FILE_NAMES: Record<DumpKind, string> = {
  'sdf-2d': 'molecules-2d.sdf',
  'sdf-3d': 'molecules-3d.sdf',
  'csv-lite': 'molecules-lite.csv',
  'csv-full': 'molecules-full.csv',
};

export interface DumpFile {
  name: string;
  kind: DumpKind;
  media_type: string;
  /** Molecules written (SDF records, CSV rows after the header). */
  records: number;
  /** sdf-3d: molecules left out because no 3D coordinates could be computed. */
  skipped?: number;
  /** sdf-3d: ids of the first (at most SKIPPED_IDS) molecules left out. */
  skipped_ids?: number[];
  /** SD tags (SDF) or columns (CSV), in order. */
  fields: string[];
  size: number;
  sha256: string;
  /** The same bytes gzip-compressed, beside the file (dumps written before there were .gz files have none). */
  gz?: { name: string; size: number; sha256: string };
}

export interface DumpManifest {
  date: string;
  created_at: string;
  finished_at: string;
  software: { name: 'natprod'; version: string };
  /** Molecules in the catalog when the dump read them. */
  molecules: number;
  files: DumpFile[];
}

const SKIPPED_IDS = 1000;

export class DumpExistsError extends Error {
  override name = 'DumpExistsError';
}

export interface DumpOptions {
  store: CatalogStore;
  /** 2D molblocks (catalog_molblocks on the chemistry threads). */
  molblocks: Molblocks;
  /** 3D molblocks (generate_3d_coordinates); required when `with3d`. */
  molblocks3d?: Molblocks;
  /** The dumps directory (DUMP_DIR, else DATA_DIR/dumps). */
  dir: string;
  /** `YYYY-MM-DD` (default: today, UTC). */
  date?: string;
  version: string;
  with3d: boolean;
  /** Replace a dump of the same date (otherwise a DumpExistsError). */
  force?: boolean;
  signal?: AbortSignal;
  /** Molecules written so far, of `total` counted at the start. */
  onProgress?: (rows: number, total: number) => void;
  /** Molecules per store read (default EXPORT_PAGE). */
  pageSize?: number;
}

export const today = (now = new Date()) => now.toISOString().slice(0, 10);

/** Is `pid` a live process (a staging directory of a running dump)? */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes staging directories left by dumps whose process died. */
async function sweepStaging(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^\.(staging|replaced)-\d{4}-\d{2}-\d{2}-(\d+)-[0-9a-f]+$/.exec(name);
    if (m && !alive(Number(m[2]))) await rm(join(dir, name), { recursive: true, force: true });
  }
}

export async function writeDump(opts: DumpOptions): Promise<DumpManifest> {
  const { store, molblocks, dir, signal } = opts;
  const date = opts.date ?? today();
  if (!DATE.test(date)) throw new Error(`Invalid dump date ${JSON.stringify(date)}: use YYYY-MM-DD.`);
  if (opts.with3d && !opts.molblocks3d) throw new Error('3D coordinates are not available here');
  await mkdir(dir, { recursive: true });
  await sweepStaging(dir);
  const target = join(dir, date);
  if (!opts.force && (await stat(target).then(() => true, () => false))) {
    throw new DumpExistsError(`A dump dated ${date} exists already (replace it with force).`);
  }
  const createdAt = new Date().toISOString();
  const suffix = `${date}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(dir, `.staging-${suffix}`);
  await mkdir(staging);
  const kinds: DumpKind[] = opts.with3d ? ['sdf-2d', 'sdf-3d', 'csv-lite', 'csv-full'] : ['sdf-2d', 'csv-lite', 'csv-full'];
  const files = new Map<DumpKind, AtomicFile>();
  try {
    for (const k of kinds) files.set(k, await AtomicFile.create(join(staging, FILE_NAMES[k]), { gzip: true }));
    const plan = await planExport({ search: {}, format: 'csv', fields: [...FULL_FIELDS], async: false }, { store, pageSize: opts.pageSize });
    const w = (k: DumpKind, s: string) => files.get(k)?.write(s) ?? Promise.resolve();
    await Promise.all([w('csv-lite', csvRow([...LITE_FIELDS])), w('csv-full', csvRow([...FULL_FIELDS]))]);
    let rows = 0;
    const skippedIds: number[] = [];
    let skipped = 0;
    opts.onProgress?.(0, plan.total);
    for await (const docs of plan.pages(signal)) {
      const smiles = docs.map(smilesOf);
      const [prov, blocks2d, blocks3d] = await Promise.all([
        loadProvenance(store, docs, PROVENANCE_FIELDS),
        molblocks(smiles, signal),
        opts.with3d ? opts.molblocks3d!(smiles, signal) : undefined,
      ]);
      if (signal?.aborted) break;
      let lite = '';
      let full = '';
      let sdf2d = '';
      let sdf3d = '';
      docs.forEach((d: Doc, i) => {
        lite += csvRecord(d, LITE_FIELDS, undefined, prov);
        full += csvRecord(d, FULL_FIELDS, undefined, prov);
        sdf2d += sdfRecord(d, blocks2d[i] ?? null, SDF_FIELDS, undefined, prov);
        if (blocks3d) {
          const b = blocks3d[i];
          if (b) sdf3d += sdfRecord(d, b, SDF_FIELDS, undefined, prov);
          else if (skipped++ < SKIPPED_IDS) skippedIds.push(d.id);
        }
      });
      await Promise.all([w('csv-lite', lite), w('csv-full', full), w('sdf-2d', sdf2d), w('sdf-3d', sdf3d)]);
      rows += docs.length;
      opts.onProgress?.(rows, plan.total);
    }
    if (signal?.aborted) throw new Error('the dump was interrupted');
    const entries: DumpFile[] = [];
    for (const k of kinds) {
      const { gz, ...written } = await files.get(k)!.commit();
      const is3d = k === 'sdf-3d';
      entries.push({
        name: FILE_NAMES[k],
        kind: k,
        media_type: MEDIA_TYPES[k.startsWith('sdf') ? 'sdf' : 'csv'],
        records: is3d ? rows - skipped : rows,
        ...(is3d ? { skipped, skipped_ids: skippedIds } : {}),
        fields: [...(k === 'csv-lite' ? LITE_FIELDS : k === 'csv-full' ? FULL_FIELDS : SDF_FIELDS)],
        ...written,
        ...(gz ? { gz: { name: `${FILE_NAMES[k]}.gz`, ...gz } } : {}),
      });
    }
    const manifest: DumpManifest = {
      date,
      created_at: createdAt,
      finished_at: new Date().toISOString(),
      software: { name: 'natprod', version: opts.version },
      molecules: rows,
      files: entries,
    };
    await writeAtomic(join(staging, MANIFEST), [`${JSON.stringify(manifest, null, 2)}\n`]);
    // Into place: an older dump of the same date (force) is moved aside first, then deleted.
    const replaced = join(dir, `.replaced-${suffix}`);
    const hadOld = await rename(target, replaced).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return false;
        throw e;
      },
    );
    await rename(staging, target);
    await syncDir(dir);
    if (hadOld) await rm(replaced, { recursive: true, force: true });
    return manifest;
  } catch (e) {
    await Promise.all([...files.values()].map((f) => f.abort()));
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}

/** The manifest of the dump of `date`, or undefined (no such dump, or an unreadable manifest). */
export async function readManifest(dir: string, date: string): Promise<DumpManifest | undefined> {
  if (!DATE.test(date)) return undefined;
  try {
    const m = JSON.parse(await readFile(join(dir, date, MANIFEST), 'utf8')) as DumpManifest;
    return m && m.date === date && Array.isArray(m.files) ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Every complete dump (one with a readable manifest), newest first. */
export async function listDumps(dir: string): Promise<DumpManifest[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => DATE.test(n)).sort().reverse();
  const out: DumpManifest[] = [];
  for (const n of names) {
    const m = await readManifest(dir, n);
    if (m) out.push(m);
  }
  return out;
}
