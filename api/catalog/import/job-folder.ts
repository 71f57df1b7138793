/**
 * The folder of import jobs (DATA_DIR/imports, shared by every api): each job's record
 * `<id>.json`, rewritten atomically; its run folders `<id>.run-<n>`, whose atomic creation decides
 * which process runs the job; its cancel marker `<id>.cancel`; and a kept upload
 * `<id>.upload.<name>`. Also what may become a job's file: an upload (size limit, SHA-256) or a
 * server file under the allowed folder.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../schema/types.ts';
import { formatOf } from './parse.ts';
import { JobRecords } from '../job-records.ts';
import { emptySummary, type ImportProgress, type ImportSummary } from './run.ts';

export type ImportStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type MoleculeStatus = 'DRAFT' | 'INREVIEW' | 'APPROVED';
export const MOLECULE_STATUSES: readonly MoleculeStatus[] = ['DRAFT', 'INREVIEW', 'APPROVED'];

export interface ImportRecord {
  id: string;
  status: ImportStatus;
  /** The file's name as given (an upload's name, or the server path's base name). */
  filename: string;
  source: 'upload' | 'path';
  /** The file read: the kept upload, or the server path. */
  path: string;
  /** What makes two imports the same file (the upload's SHA-256, or path, size and mtime). */
  key: string;
  size: number;
  /** Status of the molecules it creates. */
  molecule_status: MoleculeStatus;
  /** The file is a whole COCONUT release: revoke the COCONUT molecules it leaves out (run.ts `revokeAbsent`). */
  revoke_absent?: boolean;
  user_id: number | null;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  /** The process running (or queueing) the job, and when it last wrote the record. */
  owner?: { host: string; pid: number };
  heartbeat_at: string;
  /** Runs claimed: 1, plus one per resume. */
  runs: number;
  progress: { rows: number; bytes: number; total_bytes: number; rows_per_s: number | null; eta_s: number | null };
  /** The last row whose writes are in the store, with the summary up to it. */
  checkpoint: { row: number; summary: ImportSummary } | null;
  summary?: ImportSummary;
  error?: string;
  /** Why the job is waiting (a derivation the infrastructure failed, tried again), until rows move again. */
  notice?: string;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A job not written for this long belongs to a process that stopped (another machine's, say). */
export const STALE_MS = 60_000;
export const HOST = hostname();
export const active = (s: ImportStatus) => s === 'queued' || s === 'running';

/** Whether process `pid` of this machine runs (a killed process not yet reaped, a zombie, does not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: the state after the command name in /proc/<pid>/stat; Z is a zombie.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The record as `GET /api/imports/{id}` answers it (no owner, paths or checkpoint). */
export function importView(rec: ImportRecord, statusUrl: string) {
  const summary = rec.summary ?? rec.checkpoint?.summary ?? emptySummary();
  return {
    id: rec.id,
    status: rec.status,
    filename: rec.filename,
    source: rec.source,
    size: rec.size,
    molecule_status: rec.molecule_status,
    ...(rec.revoke_absent ? { revoke_absent: true } : {}),
    progress: { ...rec.progress, fraction: rec.progress.total_bytes ? Math.min(1, rec.progress.bytes / rec.progress.total_bytes) : 0 },
    runs: rec.runs,
    created_at: rec.created_at,
    ...(rec.started_at ? { started_at: rec.started_at } : {}),
    ...(rec.finished_at ? { finished_at: rec.finished_at } : {}),
    summary,
    ...(rec.error ? { error: rec.error } : {}),
    ...(rec.notice ? { notice: rec.notice } : {}),
    status_url: statusUrl,
  };
}

/** An uploaded file kept under the folder, not yet a job. */
export interface Upload {
  id: string;
  filename: string;
  path: string;
  key: string;
  size: number;
}

/**
 * A job's progress from the importer's: rows/s over this run (from row `fromRow`, `started`), and
 * the time left at this run's pace through the file's bytes.
 */
export function progressOf(p: ImportProgress, started: number, fromRow: number, fromBytes: number): ImportRecord['progress'] {
  const secs = (Date.now() - started) / 1000;
  const rate = secs > 0.5 ? (p.row - fromRow) / secs : null;
  const byteRate = secs > 0.5 ? (p.bytes - fromBytes) / secs : 0;
  return {
    rows: p.row,
    bytes: p.bytes,
    total_bytes: p.totalBytes,
    rows_per_s: rate === null ? null : Math.round(rate * 10) / 10,
    eta_s: byteRate > 0 ? Math.round((p.totalBytes - p.bytes) / byteRate) : null,
  };
}

/** A file on this machine, as `submitPath` takes it. */
export interface ServerFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export class JobFolder {
  private readonly records: JobRecords<ImportRecord>;

  constructor(readonly dir: string) {
    this.records = new JobRecords(dir);
  }

  file(id: string, suffix: string) {
    return join(this.dir, `${id}.${suffix}`);
  }

  /** Writes the record (atomically; one write at a time per record, each of the record as it is then). */
  save(rec: ImportRecord): Promise<void> {
    return this.records.save(rec);
  }

  async read(id: string): Promise<ImportRecord | undefined> {
    if (!ID.test(id)) return undefined;
    try {
      return JSON.parse(await readFile(this.file(id, 'json'), 'utf8')) as ImportRecord;
    } catch {
      return undefined;
    }
  }

  /** The ids of every job with a record. */
  async ids(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith('.json') && ID.test(n.slice(0, 36)) && n.length === 41).map((n) => n.slice(0, 36));
  }

  /**
   * Claims run `runs + 1` of a job, where `runs` is how many runs its record says were claimed:
   * the one process whose `mkdir` of `<id>.run-<n>` succeeds runs it (any other that read the same
   * record finds the folder there). A run folder older than STALE_MS whose run never reached the
   * record (its claimer died at once) is passed over. Resolves with the run's number, or 0.
   */
  async claim(id: string, runs: number): Promise<number> {
    for (let n = runs + 1; ; n++) {
      try {
        await mkdir(this.file(id, `run-${n}`));
        return n;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const age = await stat(this.file(id, `run-${n}`)).then((st) => Date.now() - st.mtimeMs, () => 0);
        if (age <= STALE_MS) return 0;
      }
    }
  }

  askCancel(id: string): Promise<void> {
    return writeFile(this.file(id, 'cancel'), new Date().toISOString());
  }

  cancelAsked(id: string): Promise<boolean> {
    return stat(this.file(id, 'cancel')).then(() => true, () => false);
  }

  /** Drops an upload no job was made of. */
  discard(upload: Upload): Promise<void> {
    return rm(upload.path, { force: true });
  }

  /** After a job ended: its kept upload and cancel marker go. */
  async ended(rec: ImportRecord): Promise<void> {
    if (rec.source === 'upload') await rm(rec.path, { force: true });
    await rm(this.file(rec.id, 'cancel'), { force: true });
  }

  /** Keeps an upload's bytes under the folder (413 past `limit`, 422 for a type no reader takes). */
  async upload(stream: Readable, filename: string, limit: number): Promise<Upload> {
    const name = basename(filename || 'upload').replace(/[^A-Za-z0-9._-]/g, '_');
    try {
      readable(name);
    } catch (e) {
      stream.resume();
      throw e;
    }
    const id = randomUUID();
    const path = this.file(id, `upload.${name}`);
    const hash = createHash('sha256');
    let size = 0;
    const tooLarge = () => new HttpError(413, `The upload is larger than IMPORT_UPLOAD_LIMIT (${limit} bytes): put the file under IMPORT_DIR on the server and import it by path.`);
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit) return done(tooLarge());
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, count, createWriteStream(path));
      if ((stream as { truncated?: boolean }).truncated) throw tooLarge();
      if (!size) throw new HttpError(422, 'The uploaded file is empty.');
    } catch (e) {
      await rm(path, { force: true });
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw e;
    }
    return { id, filename: filename || name, path, key: `sha256:${hash.digest('hex')}`, size };
  }
}

/** The server file `path` names, checked to lie under `allowedDir` (403 outside it, 404 when absent). */
export async function serverFile(allowedDir: string | undefined, path: string): Promise<ServerFile> {
  if (!allowedDir) throw new HttpError(403, 'Imports by server path are off: set IMPORT_DIR to the folder they may read, or upload the file.');
  const root = await realpath(allowedDir).catch(() => {
    throw new HttpError(503, `IMPORT_DIR (${allowedDir}) cannot be read.`);
  });
  const outside = (p: string) => {
    const rel = relative(root, p);
    return rel.startsWith('..') || isAbsolute(rel);
  };
  const refuse = () => new HttpError(403, `${JSON.stringify(path)} is outside IMPORT_DIR: only files under it may be imported by path.`);
  const named = resolve(root, path);
  // Outside by its name (whether it exists is not told), or through a link.
  if (outside(named) && outside(resolve(allowedDir, path))) throw refuse();
  const real = await realpath(named).catch(() => {
    throw new HttpError(404, `No file ${JSON.stringify(path)} under IMPORT_DIR.`);
  });
  if (outside(real)) throw refuse();
  const st = await stat(real);
  if (!st.isFile()) throw new HttpError(422, `${JSON.stringify(path)} is not a file.`);
  readable(real);
  return { path: real, size: st.size, mtimeMs: st.mtimeMs };
}

/** 422 for a file of a type no reader takes (its name says the type). */
function readable(name: string): void {
  try {
    formatOf(name);
  } catch (e) {
    throw new HttpError(422, e instanceof Error ? e.message : String(e));
  }
}

/** What makes two imports of a server file the same: path, size and modification time. */
export function pathKey(file: ServerFile) {
  return `path:${file.path}:${file.size}:${Math.round(file.mtimeMs)}`;
}
