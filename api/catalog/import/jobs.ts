/**
 * (Over 300 lines on purpose: one job's life, submitted, claimed, run with its checkpoints, resumed after its process died, cancelled, reads as one class; the folder, its files and uploads are job-folder.ts.)
 *
 * Catalog imports as jobs: the one path of `POST /api/imports`, the MCP tool `import_molecules`
 * and `npm run catalog:import`. A job reads its file (an upload kept under the folder, or a file
 * on the server) and runs `importFile` (run.ts): rows are derived `chunk` at a time by the task
 * `derive_molecules` on the chemistry threads (the pool in the embedded mode, the BullMQ workers
 * in the distributed one) and written in file order by the process running the job.
 *
 * Each job is a record `<id>.json` in a folder every api shares (DATA_DIR/imports), rewritten
 * atomically as the job goes: status, progress (rows, bytes, rows/s, ETA), and a checkpoint (the
 * last row whose writes are in the store, with the summary up to it), saved only after the
 * store holds those rows. A job whose process died (killed, even with SIGKILL) is resumed from
 * its checkpoint by the next process that sees it: an api at start and every SWEEP_MS, or the
 * command line importing the same file again. The rows between the checkpoint and the kill are
 * written again; the importer's upserts match what they wrote (molecules by InChIKey, organisms,
 * citations and collections by their keys, links by pair), so nothing is duplicated or lost.
 * Which process runs a job is decided by an atomic `mkdir` of `<id>.run-<n>`.
 *
 * A file already being imported (the same upload bytes, or the same server path, size and
 * modification time) is refused with 409 naming that job. Cancelling (`<id>.cancel`, seen by
 * the owner at its next checkpoint) stops the job between rows: what was written stays.
 */
import type { Readable } from 'node:stream';
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../../shared/log.ts';
import type { Derive } from '../mutate/derived.ts';
import { HttpError } from '../schema/types.ts';
import type { CatalogStore } from '../store/types.ts';
import type { DeriveMany, FingerprintMany } from './derive-cache.ts';
import { active, alive, HOST, JobFolder, pathKey, progressOf, serverFile, STALE_MS, type ImportRecord, type MoleculeStatus, type ServerFile, type Upload } from './job-folder.ts';
import { importFile } from './run.ts';

export { importView, MOLECULE_STATUSES, type ImportRecord, type ImportStatus, type MoleculeStatus, type Upload } from './job-folder.ts';

const HEARTBEAT_MS = 5_000;
const SWEEP_MS = 15_000;

export interface ImportJobsOptions {
  /** The shared folder of job records and kept uploads (DATA_DIR/imports). */
  dir: string;
  store: CatalogStore;
  derive: Derive;
  /** Chunks of structures derived per task; absent: one task per structure (derive). */
  deriveMany?: DeriveMany;
  /** Fingerprints in chunks for rows that carry the rest of their derivation (carried.ts). */
  fingerprintMany?: FingerprintMany;
  /** One carried row in this many is derived again to check the file (default 100; 1: every row). */
  sampleEvery?: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Server files `path` imports may read: under this folder only (unset: none, uploads only). */
  allowedDir?: string;
  /** Largest upload, in bytes. */
  uploadLimit: number;
  /** Structures per derivation task. */
  chunk?: number;
  /** Resume other processes' stopped jobs (an api); the command line resumes only its own file. */
  sweep?: boolean;
  /** How long a derivation the infrastructure fails is tried again (default 5 minutes). */
  retryForMs?: number;
}

export interface SubmitOptions {
  moleculeStatus?: MoleculeStatus;
  userId: number | null;
  /** A whole COCONUT release: revoke the COCONUT molecules it leaves out. */
  revokeAbsent?: boolean;
}

export class ImportJobs {
  private readonly folder: JobFolder;
  /** Jobs this process runs or queues, and how to stop each. */
  private readonly mine = new Map<string, { rec: ImportRecord; abort: AbortController; done: Promise<void>; started: boolean }>();
  /** Jobs run one at a time per process: the chemistry threads are the bottleneck of each. */
  private queue: Promise<void> = Promise.resolve();
  private timers: NodeJS.Timeout[] = [];
  private ready?: Promise<void>;
  private closing = false;
  /** Progress listeners (the command line's bar). */
  private readonly listeners = new Set<(rec: ImportRecord) => void>();

  constructor(private readonly opts: ImportJobsOptions) {
    this.folder = new JobFolder(opts.dir);
  }

  get uploadLimit(): number {
    return this.opts.uploadLimit;
  }

  start(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.opts.dir, { recursive: true });
      const beat = setInterval(() => {
        for (const { rec } of this.mine.values()) void this.folder.save(rec).catch(() => {});
      }, HEARTBEAT_MS);
      beat.unref();
      this.timers.push(beat);
      if (this.opts.sweep) {
        const sweep = () => void this.sweep().catch((err: unknown) => this.opts.log.warn(`imports: sweep failed: ${String(err)}`));
        // The first sweep runs once this start has resolved: resuming a job starts the folder too.
        setImmediate(sweep);
        const sweeper = setInterval(sweep, SWEEP_MS);
        sweeper.unref();
        this.timers.push(sweeper);
      }
    })().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  /** Stops running jobs between rows; they stay resumable (queued, no owner) and resume at the next start. */
  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    const jobs = [...this.mine.values()];
    for (const j of jobs) j.abort.abort(new Error('shutdown'));
    await Promise.all(jobs.map((j) => j.done));
  }

  /** What /health says: the imports this process runs and queues, with their progress. */
  status(): { running: number; queued: number; jobs: { id: string; status: string; filename: string; rows: number; rows_per_s: number | null }[] } {
    const jobs = [...this.mine.values()].map(({ rec }) => ({ id: rec.id, status: rec.status, filename: rec.filename, rows: rec.progress.rows, rows_per_s: rec.progress.rows_per_s }));
    return { running: jobs.filter((j) => j.status === 'running').length, queued: jobs.filter((j) => j.status === 'queued').length, jobs };
  }

  onProgress(fn: (rec: ImportRecord) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The record of a job (any process's on this folder), or undefined. */
  async get(id: string): Promise<ImportRecord | undefined> {
    const mine = this.mine.get(id);
    return mine ? structuredClone(mine.rec) : this.folder.read(id);
  }

  /** Every job's record, newest first. */
  async list(): Promise<ImportRecord[]> {
    const recs = await Promise.all((await this.folder.ids()).map((id) => this.get(id)));
    return recs.filter((r): r is ImportRecord => !!r).sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** Whether the process owning an unfinished job is gone. */
  private orphaned(rec: ImportRecord): boolean {
    if (!active(rec.status) || this.mine.has(rec.id)) return false;
    if (!rec.owner) return true;
    if (rec.owner.host === HOST && !alive(rec.owner.pid)) return true;
    return Date.now() - Date.parse(rec.heartbeat_at) > STALE_MS;
  }

  /** An unfinished job of the same file, refused as a second import of it. */
  private async refuseDuplicate(key: string): Promise<void> {
    const dup = (await this.list()).find((r) => r.key === key && active(r.status));
    if (dup) throw new HttpError(409, `This file is already being imported: job ${dup.id} (${dup.status}).`);
  }

  /** Keeps an upload's bytes under the folder (413 past the limit, 422 for a type no reader takes). */
  async upload(stream: Readable, filename: string): Promise<Upload> {
    await this.start();
    return this.folder.upload(stream, filename, this.opts.uploadLimit);
  }

  /** Drops an upload no job was made of. */
  async discard(upload: Upload): Promise<void> {
    await this.folder.discard(upload);
  }

  /** Imports a kept upload (409 when the same bytes are being imported). */
  async submitUpload(upload: Upload, opts: SubmitOptions): Promise<ImportRecord> {
    try {
      await this.refuseDuplicate(upload.key);
      return await this.create({ ...upload, source: 'upload' }, opts);
    } catch (e) {
      await this.discard(upload);
      throw e;
    }
  }

  /** The server file a request names, under IMPORT_DIR only. */
  serverFile(path: string): Promise<ServerFile> {
    return serverFile(this.opts.allowedDir, path);
  }

  /** Imports a file on this machine (checked by the caller: `serverFile` for requests; the command line reads what its user names). */
  async submitPath(file: ServerFile, opts: SubmitOptions): Promise<ImportRecord> {
    await this.start();
    const key = pathKey(file);
    await this.refuseDuplicate(key);
    return this.create({ id: randomUUID(), filename: basename(file.path), source: 'path', path: file.path, key, size: file.size }, opts);
  }

  /** An unfinished job of this file whose process is gone (the command line resumes it), if any. */
  async stopped(file: ServerFile): Promise<ImportRecord | undefined> {
    const key = pathKey(file);
    return (await this.list()).find((r) => r.key === key && this.orphaned(r));
  }

  private async create(src: Pick<ImportRecord, 'id' | 'filename' | 'source' | 'path' | 'key' | 'size'>, opts: SubmitOptions): Promise<ImportRecord> {
    const now = new Date().toISOString();
    const rec: ImportRecord = {
      ...src,
      status: 'queued',
      molecule_status: opts.moleculeStatus ?? 'APPROVED',
      ...(opts.revokeAbsent ? { revoke_absent: true } : {}),
      user_id: opts.userId,
      created_at: now,
      heartbeat_at: now,
      owner: { host: HOST, pid: process.pid },
      runs: 1,
      progress: { rows: 0, bytes: 0, total_bytes: src.size, rows_per_s: null, eta_s: null },
      checkpoint: null,
    };
    await this.folder.claim(rec.id, 0);
    await this.folder.save(rec);
    this.enqueue(rec);
    return structuredClone(rec);
  }

  /**
   * Takes over a job whose process is gone: the first process to create its next run folder
   * runs it. Resolves with the record it runs, or undefined when another process was first.
   */
  async resume(rec: ImportRecord): Promise<ImportRecord | undefined> {
    await this.start();
    const run = await this.folder.claim(rec.id, rec.runs);
    if (!run) return undefined;
    const fresh = (await this.folder.read(rec.id)) ?? rec;
    if (!active(fresh.status)) return undefined;
    fresh.runs = run;
    fresh.owner = { host: HOST, pid: process.pid };
    fresh.status = 'queued';
    await this.folder.save(fresh);
    this.opts.log.info(`import ${fresh.id} (${fresh.filename}) resumes after row ${fresh.checkpoint?.row ?? 0}`);
    this.enqueue(fresh);
    return structuredClone(fresh);
  }

  /** Resumes the jobs of processes that are gone. */
  async sweep(): Promise<void> {
    if (this.closing) return;
    for (const rec of await this.list()) if (this.orphaned(rec)) await this.resume(rec);
  }

  /** Asks a job to stop; resolves with its record (409 when it has ended). */
  async cancel(id: string): Promise<ImportRecord> {
    const rec = await this.get(id);
    if (!rec) throw new HttpError(404, `Import ${id} not found.`);
    if (!active(rec.status)) throw new HttpError(409, `Import ${id} has already ended (${rec.status}).`);
    await this.folder.askCancel(id);
    const mine = this.mine.get(id);
    if (mine && !mine.started) {
      // Still waiting behind another import of this process: it never starts.
      this.mine.delete(id);
      await this.finish(mine.rec, { status: 'cancelled' });
    } else if (mine) {
      mine.abort.abort(new Error('cancelled'));
      await mine.done;
    } else if (this.orphaned(rec)) {
      await this.finish(rec, { status: 'cancelled' });
    }
    return (await this.get(id))!;
  }

  /** Settles when the job has ended in this process (the command line waits on it). */
  async settled(id: string): Promise<ImportRecord | undefined> {
    await this.mine.get(id)?.done;
    return this.get(id);
  }

  private enqueue(rec: ImportRecord) {
    const abort = new AbortController();
    const entry = { rec, abort, done: Promise.resolve(), started: false };
    this.mine.set(rec.id, entry);
    entry.done = this.queue = this.queue
      .then(() => {
        if (this.mine.get(rec.id) !== entry) return; // cancelled while it waited
        entry.started = true;
        return this.run(entry.rec, abort.signal);
      })
      .catch((err: unknown) => {
        this.opts.log.error(`import ${rec.id} failed to record its end: ${String(err)}`);
      });
  }

  private async finish(rec: ImportRecord, end: Partial<ImportRecord>) {
    Object.assign(rec, end, { finished_at: new Date().toISOString() });
    await this.folder.save(rec);
    await this.folder.ended(rec);
  }

  private async run(rec: ImportRecord, signal: AbortSignal): Promise<void> {
    const started = Date.now();
    const fromRow = rec.checkpoint?.row ?? 0;
    const fromBytes = rec.progress.bytes;
    let lastSave = 0;
    try {
      if (signal.aborted) throw signal.reason;
      rec.status = 'running';
      rec.started_at ??= new Date().toISOString();
      await this.folder.save(rec);
      const summary = await importFile(this.opts.store, rec.path, {
        derive: this.opts.derive,
        deriveMany: this.opts.deriveMany,
        fingerprintMany: this.opts.fingerprintMany,
        sampleEvery: this.opts.sampleEvery,
        chunk: this.opts.chunk,
        status: rec.molecule_status,
        user: rec.user_id === null ? undefined : { id: rec.user_id },
        tag: `import:${rec.id}`,
        revokeAbsent: rec.revoke_absent,
        signal,
        resume: rec.checkpoint ? { afterRow: rec.checkpoint.row, summary: rec.checkpoint.summary } : undefined,
        retryForMs: this.opts.retryForMs,
        onRetry: (err, waitMs) => {
          rec.notice = `derivation failed (${err.status}: ${typeof err.detail === 'string' ? err.detail : JSON.stringify(err.detail)}); trying again in ${waitMs / 1000} s`;
          this.opts.log.warn(`import ${rec.id}: ${rec.notice}`);
          void this.folder.save(rec).catch(() => {});
        },
        onProgress: (p) => {
          delete rec.notice;
          rec.progress = progressOf(p, started, fromRow, fromBytes);
          for (const fn of this.listeners) fn(rec);
          if (Date.now() - lastSave > 1000) {
            lastSave = Date.now();
            void this.folder.save(rec).catch(() => {});
          }
        },
        onCheckpoint: async ({ row, summary }) => {
          rec.checkpoint = { row, summary: structuredClone(summary) };
          await this.folder.save(rec);
          // A cancel asked through another api (or a second command line) is seen here.
          if (await this.folder.cancelAsked(rec.id)) this.mine.get(rec.id)?.abort.abort(new Error('cancelled'));
        },
      });
      await this.finish(rec, { status: 'succeeded', summary, progress: { ...rec.progress, rows: summary.rows, eta_s: 0 } });
      this.opts.log.info(`import ${rec.id} (${rec.filename}) done: ${summary.rows} rows, created ${JSON.stringify(summary.created)}, ${summary.rejected_count} rejected`);
    } catch (err) {
      const why = signal.aborted ? String((signal.reason as Error)?.message ?? signal.reason) : '';
      if (why === 'cancelled') await this.finish(rec, { status: 'cancelled', summary: rec.checkpoint?.summary });
      else if (why === 'shutdown') {
        // Any process may take it up at once: no owner to wait for.
        rec.status = 'queued';
        delete rec.owner;
        await this.folder.save(rec);
        this.opts.log.warn(`import ${rec.id} stopped by shutdown after row ${rec.checkpoint?.row ?? 0}; it resumes at the next start`);
      } else {
        const message = err instanceof Error ? err.message : String(err);
        await this.finish(rec, { status: 'failed', error: message, summary: rec.checkpoint?.summary });
        this.opts.log.error(`import ${rec.id} (${rec.filename}) failed after row ${rec.checkpoint?.row ?? 0}: ${message}`);
      }
    } finally {
      for (const fn of this.listeners) fn(rec);
      this.mine.delete(rec.id);
    }
  }
}
