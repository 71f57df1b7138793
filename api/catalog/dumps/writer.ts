/**
 * Files that appear complete or not at all: an AtomicFile is written under a temporary name in
 * the directory of its final name (`.<name>.<pid>.<random>.tmp`), hashed (SHA-256) and counted
 * as it is written, flushed to disk (fsync), and only then renamed to its final name (rename is
 * atomic within a file system), after which the directory itself is fsynced so that the rename
 * survives a power cut. A write that fails or is aborted deletes the temporary file; a process
 * killed meanwhile leaves only a `.tmp` name, never a half-written file under the final name.
 *
 * With `{ gzip: true }` an AtomicFile also writes its bytes gzip-compressed (zlib, level 6, as
 * they come, on libuv's threads) to a second AtomicFile, `<name>.gz`, hashed and counted in turn:
 * committed after the plain file, aborted with it. The pair is not renamed as one (a crash between
 * the two renames leaves the plain file alone); the dumps' staging directory makes it so.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createGzip } from 'node:zlib';

export interface WrittenFile {
  /** Bytes written. */
  size: number;
  /** SHA-256 of the content, lower-case hex. */
  sha256: string;
}

/** The temporary name an AtomicFile writes before its rename. */
export const isTempName = (name: string) => name.startsWith('.') && name.endsWith('.tmp');

/** fsync of a directory (makes a rename in it durable); a no-op where directories cannot be opened (Windows). */
export async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // not supported on this platform or file system
  } finally {
    await fh?.close();
  }
}

/** What an AtomicFile wrote: its bytes, and those of its `.gz` sibling when it has one. */
export interface CommittedFile extends WrittenFile {
  gz?: WrittenFile;
}

/** The gzip sibling of an AtomicFile: zlib's gzip stream, its output written to another AtomicFile in order. */
class GzipSibling {
  private readonly zip = createGzip({ level: 6 });
  /** The output written so far; rejects with the first write's failure. */
  private readonly pumped: Promise<void>;
  /** Rejects once the output stopped, with its failure (or as a stop before the end). */
  private readonly stopped: Promise<never>;

  constructor(readonly file: AtomicFile) {
    this.pumped = (async () => {
      for await (const chunk of this.zip) await file.write(chunk as Buffer);
    })();
    this.stopped = this.pumped.then(() => Promise.reject(new Error(`${file.path}: gzip stopped`)));
    // Observed by write() and finish(); a zlib error also rejects `pumped`.
    this.pumped.catch(() => {});
    this.stopped.catch(() => {});
    this.zip.on('error', () => {});
  }

  async write(buf: Uint8Array): Promise<void> {
    if (this.zip.destroyed) await this.stopped;
    if (!this.zip.write(buf)) await Promise.race([once(this.zip, 'drain'), this.stopped]);
  }

  /** Every byte compressed and written (the file is still to commit). */
  async finish(): Promise<void> {
    this.zip.end();
    await this.pumped;
  }

  async abort(): Promise<void> {
    this.zip.destroy();
    await this.pumped.catch(() => {});
    await this.file.abort();
  }
}

export class AtomicFile {
  readonly tempPath: string;
  private readonly hash: Hash = createHash('sha256');
  private size = 0;
  private done = false;
  private gzip?: GzipSibling;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    tempPath: string,
  ) {
    this.tempPath = tempPath;
  }

  /** Creates the temporary file (exclusively: `wx`) beside `path`, and that of `<path>.gz` with `gzip`. */
  static async create(path: string, opts: { gzip?: boolean } = {}): Promise<AtomicFile> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const fh = await open(temp, 'wx');
    const file = new AtomicFile(path, fh, temp);
    if (opts.gzip) {
      try {
        file.gzip = new GzipSibling(await AtomicFile.create(`${path}.gz`));
      } catch (e) {
        await file.abort();
        throw e;
      }
    }
    return file;
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.done) throw new Error(`${this.path}: write after commit or abort`);
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (!buf.length) return;
    this.hash.update(buf);
    let off = 0;
    while (off < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off);
      off += bytesWritten;
    }
    this.size += buf.length;
    await this.gzip?.write(buf);
  }

  /** fsync, close, rename to the final name, fsync the directory; then the same for the `.gz` sibling. */
  async commit(): Promise<CommittedFile> {
    if (this.done) throw new Error(`${this.path}: already committed or aborted`);
    try {
      await this.gzip?.finish();
    } catch (e) {
      await this.abort();
      throw e;
    }
    this.done = true;
    try {
      await this.fh.sync();
      await this.fh.close();
      await rename(this.tempPath, this.path);
    } catch (e) {
      await this.fh.close().catch(() => {});
      await rm(this.tempPath, { force: true });
      await this.gzip?.abort();
      throw e;
    }
    await syncDir(dirname(this.path));
    const written = { size: this.size, sha256: this.hash.digest('hex') };
    return this.gzip ? { ...written, gz: await this.gzip.file.commit() } : written;
  }

  /** Closes and deletes the temporary file; the final name is never touched. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.fh.close().catch(() => {});
    await rm(this.tempPath, { force: true });
    await this.gzip?.abort();
  }
}

/** Writes `source` to `path` atomically; on any failure (or `signal` aborting) nothing appears at `path`. */
export async function writeAtomic(path: string, source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, signal?: AbortSignal): Promise<WrittenFile> {
  const file = await AtomicFile.create(path);
  try {
    for await (const chunk of source) {
      if (signal?.aborted) throw new Error(`${basename(path)}: writing was interrupted`);
      await file.write(chunk);
    }
    if (signal?.aborted) throw new Error(`${basename(path)}: writing was interrupted`);
    return await file.commit();
  } catch (e) {
    await file.abort();
    throw e;
  }
}
