/**
 * Export jobs: a large export (or one asked for with `async`) is written to a file under
 * `DATA_DIR/exports/` by the api process that took the request, streamed to disk a page at a time.
 *
 * Each job is two files: `<id>.json`, its record (status, rows written, total, owner, times),
 * rewritten atomically as the job advances, and the export itself, `<id>.<format>` (written as
 * `<id>.<format>.part`, renamed when complete). Status and download read these files, so any api
 * process on the same DATA_DIR can answer them (with several apis, the folder must be shared by
 * all of them: docs/operations.md, Several apis); the job itself runs where it was taken. A job
 * whose process stopped (its record not refreshed for STALE_MS) reads as failed.
 *
 * A finished export expires JOB_RESULT_TTL seconds after it ended: its files are deleted (by the
 * periodic sweep, or when it is asked for). Jobs run on the catalog plugin's BackgroundWork, so
 * closing the app aborts them between pages (they end `failed`, their partial file deleted) and
 * waits for them.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BackgroundWork } from '../actions/background.ts';
import type { ExportFormat } from './format.ts';
import { JobRecords } from '../job-records.ts';

export type ExportStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ExportRecord {
  id: string;
  status: ExportStatus;
  format: ExportFormat;
  filename: string;
  /** Molecules written so far, and how many matched when the export was planned. */
  rows: number;
  total: number;
  /** `sdf3d`: molecules left out because no 3D coordinates could be computed for them. */
  skipped?: number;
  user_id: number;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  expires_at?: string;
  /** Bytes of the finished file. */
  size?: number;
  error?: string;
  /** Last time the running process wrote this record (liveness). */
  heartbeat_at: string;
}

/**
 * What `GET /api/exports/{id}` (and the look-ups' `GET /api/lookups/{id}`) answer about a job:
 * the record without its owner and heartbeat, with the download URL once it succeeded. The
 * look-ups leave out `format` (always CSV).
 */
export function jobView(rec: ExportRecord, downloadUrl: string, opts: { format?: boolean } = {}) {
  return {
    id: rec.id,
    status: rec.status,
    ...(opts.format === false ? {} : { format: rec.format }),
    filename: rec.filename,
    progress: { rows: rec.rows, total: rec.total, ...(rec.skipped !== undefined ? { skipped: rec.skipped } : {}) },
    created_at: rec.created_at,
    ...(rec.started_at ? { started_at: rec.started_at } : {}),
    ...(rec.finished_at ? { finished_at: rec.finished_at } : {}),
    ...(rec.expires_at ? { expires_at: rec.expires_at } : {}),
    ...(rec.size !== undefined ? { size: rec.size } : {}),
    ...(rec.error ? { error: rec.error } : {}),
    ...(rec.status === 'succeeded' ? { download_url: downloadUrl } : {}),
  };
}

/** A running job refreshes its record at least this often ... */
const HEARTBEAT_MS = 5_000;
/** ... and is taken for dead (its process stopped) after this long without a refresh. */
export const STALE_MS = 60_000;
/** Names this process's temporary files. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ExportJobsOptions {
  dir: string;
  ttlSeconds: number;
  background: BackgroundWork;
  /** Export jobs running at once in this process; more wait (status `queued`). */
  concurrency?: number;
}

export class ExportJobs {
  private readonly dir: string;
  private readonly ttlMs: number;
  private readonly concurrency: number;
  /** Records of the jobs this process runs or queues. */
  private readonly mine = new Map<string, ExportRecord>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private sweeper?: NodeJS.Timeout;
  private heart?: NodeJS.Timeout;
  private ready?: Promise<void>;

  constructor(private readonly opts: ExportJobsOptions) {
    this.dir = opts.dir;
    this.ttlMs = opts.ttlSeconds * 1000;
    this.concurrency = opts.concurrency ?? 2;
    this.records = new JobRecords(opts.dir);
  }

  /** Creates the directory, sweeps it, and starts the periodic sweep and heartbeat. */
  start(): Promise<void> {
    // A failed start (the directory cannot be created) is tried again at the next call.
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      await this.sweep();
      this.sweeper = setInterval(() => void this.sweep().catch(() => {}), Math.min(60_000, Math.max(1_000, this.ttlMs / 2)));
      this.sweeper.unref();
      this.heart = setInterval(() => {
        for (const rec of this.mine.values()) void this.save(rec).catch(() => {});
      }, HEARTBEAT_MS);
      this.heart.unref();
    })().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  close(): void {
    clearInterval(this.sweeper);
    clearInterval(this.heart);
  }

  private file(id: string, ext: string) {
    return join(this.dir, `${id}.${ext}`);
  }

  /** The records, written atomically, one write at a time per record. */
  private readonly records: JobRecords<ExportRecord>;

  private save(rec: ExportRecord): Promise<void> {
    return this.records.save(rec);
  }

  private async remove(id: string, format?: string): Promise<void> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => n.startsWith(`${id}.`));
    if (format) names.push(`${id}.${format}`);
    await Promise.all([...new Set(names)].map((n) => rm(join(this.dir, n), { force: true })));
  }

  /**
   * Queues an export: `write` streams the export's text (it is told the rows written so far).
   * Resolves with the record once it is on disk.
   */
  async submit(
    init: { format: ExportFormat; filename: string; total: number; userId: number },
    write: (signal: AbortSignal, onRows: (rows: number, skipped?: number) => void) => AsyncIterable<string>,
  ): Promise<ExportRecord> {
    await this.start();
    const now = new Date().toISOString();
    const rec: ExportRecord = {
      id: randomUUID(),
      status: 'queued',
      format: init.format,
      filename: init.filename,
      rows: 0,
      total: init.total,
      user_id: init.userId,
      created_at: now,
      heartbeat_at: now,
    };
    await this.save(rec);
    this.mine.set(rec.id, rec);
    this.opts.background.run(`export ${rec.id}`, (signal) => this.execute(rec, signal, write));
    return { ...rec };
  }

  private async slot(signal: AbortSignal): Promise<void> {
    while (this.running >= this.concurrency && !signal.aborted) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
  }

  private release() {
    this.running--;
    this.waiting.shift()?.();
  }

  private async execute(rec: ExportRecord, signal: AbortSignal, write: (signal: AbortSignal, onRows: (rows: number, skipped?: number) => void) => AsyncIterable<string>): Promise<void> {
    // Closing the app wakes every waiting job so that it can end.
    const wake = () => this.waiting.splice(0).forEach((r) => r());
    signal.addEventListener('abort', wake, { once: true });
    await this.slot(signal);
    const part = this.file(rec.id, `${rec.format}.part`);
    let lastSave = 0;
    let end: Pick<ExportRecord, 'status' | 'size' | 'error'> = { status: 'failed' };
    try {
      if (signal.aborted) throw new Error('the server stopped before the export started');
      rec.status = 'running';
      rec.started_at = new Date().toISOString();
      await this.save(rec);
      const onRows = (rows: number, skipped?: number) => {
        rec.rows = rows;
        if (skipped !== undefined && rec.format === 'sdf3d') rec.skipped = skipped;
        // The record is rewritten at most every 250 ms while rows are written.
        if (Date.now() - lastSave > 250) {
          lastSave = Date.now();
          void this.save(rec).catch(() => {});
        }
      };
      await pipeline(Readable.from(write(signal, onRows)), createWriteStream(part), { signal });
      if (signal.aborted) throw new Error('the server stopped during the export');
      await rename(part, this.file(rec.id, rec.format));
      end = { status: 'succeeded', size: (await stat(this.file(rec.id, rec.format))).size };
    } catch (e) {
      await rm(part, { force: true });
      end = { status: 'failed', error: signal.aborted ? 'the server stopped during the export; ask for it again' : ((e as Error)?.message ?? String(e)) };
    } finally {
      this.release();
      signal.removeEventListener('abort', wake);
      // The end is written to disk before anyone sees it: until then `get` answers the running
      // record, so a reader of this process and one of another process never disagree.
      const done: ExportRecord = { ...rec, ...end, finished_at: new Date().toISOString(), expires_at: new Date(Date.now() + this.ttlMs).toISOString() };
      try {
        await this.save(done);
      } finally {
        this.mine.delete(rec.id);
      }
    }
  }

  /** The record of a job (any process's, on this DATA_DIR), or undefined when unknown or expired. */
  async get(id: string): Promise<ExportRecord | undefined> {
    if (!ID.test(id)) return undefined;
    const mine = this.mine.get(id);
    if (mine) return { ...mine };
    let rec: ExportRecord;
    try {
      rec = JSON.parse(await readFile(this.file(id, 'json'), 'utf8')) as ExportRecord;
    } catch {
      return undefined;
    }
    const now = Date.now();
    if ((rec.status === 'queued' || rec.status === 'running') && now - Date.parse(rec.heartbeat_at) > STALE_MS) {
      // Its process stopped: the job will never end.
      await rm(this.file(id, `${rec.format}.part`), { force: true });
      rec.status = 'failed';
      rec.error = 'the api process running this export stopped; ask for it again';
      rec.finished_at = new Date(now).toISOString();
      rec.expires_at = new Date(now + this.ttlMs).toISOString();
      await this.save(rec).catch(() => {});
    }
    if (rec.expires_at && Date.parse(rec.expires_at) <= now) {
      await this.remove(id, rec.format);
      return undefined;
    }
    return rec;
  }

  /** The finished file as a stream. */
  open(rec: ExportRecord): Readable {
    return createReadStream(this.file(rec.id, rec.format));
  }

  /** Deletes expired exports, and files left without a record for longer than the TTL. */
  async sweep(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => n.slice(0, 36)).filter((id) => ID.test(id)));
    for (const id of ids) {
      if (this.mine.has(id)) continue;
      if (names.includes(`${id}.json`)) {
        await this.get(id); // deletes the files once expired, fails a stale job
        continue;
      }
      const files = names.filter((n) => n.startsWith(`${id}.`));
      const ages = await Promise.all(files.map((n) => stat(join(this.dir, n)).then((s) => Date.now() - s.mtimeMs, () => 0)));
      if (ages.every((a) => a > this.ttlMs + STALE_MS)) await this.remove(id);
    }
  }
}
