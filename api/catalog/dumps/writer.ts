/**
 * Files that appear complete or not at all: an AtomicFile is written under a temporary name in
 * the directory of its final name (`.<name>.<pid>.<random>.tmp`), hashed (SHA-256) and counted
 * as it is written, flushed to disk (fsync), and only then renamed to its final name (rename is
 * atomic within a file system), after which the directory itself is fsynced so that the rename
 * survives a power cut. A write that fails or is aborted deletes the temporary file; a process
 * killed meanwhile leaves only a `.tmp` name, never a half-written file under the final name.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

export class AtomicFile {
  readonly tempPath: string;
  private readonly hash: Hash = createHash('sha256');
  private size = 0;
  private done = false;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    tempPath: string,
  ) {
    this.tempPath = tempPath;
  }

  /** Creates the temporary file (exclusively: `wx`) beside `path`. */
  static async create(path: string): Promise<AtomicFile> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const fh = await open(temp, 'wx');
    return new AtomicFile(path, fh, temp);
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
  }

  /** fsync, close, rename to the final name, fsync the directory. */
  async commit(): Promise<WrittenFile> {
    if (this.done) throw new Error(`${this.path}: already committed or aborted`);
    this.done = true;
    try {
      await this.fh.sync();
      await this.fh.close();
      await rename(this.tempPath, this.path);
    } catch (e) {
      await this.fh.close().catch(() => {});
      await rm(this.tempPath, { force: true });
      throw e;
    }
    await syncDir(dirname(this.path));
    return { size: this.size, sha256: this.hash.digest('hex') };
  }

  /** Closes and deletes the temporary file; the final name is never touched. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.fh.close().catch(() => {});
    await rm(this.tempPath, { force: true });
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
