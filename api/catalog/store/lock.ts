/**
 * A cross-process lock file plus an in-process queue. Not re-entrant: a caller that may nest
 * (the embedded store) tracks that itself.
 * The lock file holds the owner's pid, host name and a random id of the owning process; a lock is
 * broken when its owner on this host is dead, or is a dead earlier process that had our own pid
 * (a container restarts its main process under the same pid), when it stayed empty (its owner
 * died between creating and writing it), or when it is older than `staleMs` (a crashed owner on
 * another host or pid namespace).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';

/** This process among all that ever had its pid. */
const OWNER = `${process.pid} ${hostname()} ${randomUUID()}`;
/** An empty lock file older than this lost its owner before the owner wrote it (a write of microseconds). */
const EMPTY_STALE_MS = 2_000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class FileLock {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly staleMs = 600_000,
    private readonly waitMs = 120_000,
  ) {}

  /** Runs fn holding the lock (a call from inside fn would wait for itself). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const prev = this.queue;
    this.queue = new Promise<void>((r) => (release = r));
    await prev;
    try {
      await this.acquire();
      try {
        return await fn();
      } finally {
        // Synchronous, like the creation: microseconds, against a thread-pool round trip per store call.
        try {
          unlinkSync(this.path);
        } catch {
          // already broken by another process as stale
        }
      }
    } finally {
      release();
    }
  }

  private async acquire(): Promise<void> {
    const start = Date.now();
    let delay = 2;
    for (;;) {
      try {
        // Created and written in one go (no await in between), so that only a kill between two
        // system calls can leave it empty.
        const fd = openSync(this.path, 'wx');
        try {
          writeSync(fd, OWNER);
        } finally {
          closeSync(fd);
        }
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      await this.breakIfStale();
      if (Date.now() - start > this.waitMs) throw new Error(`catalog store: lock ${this.path} held too long`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 50);
    }
  }

  private async breakIfStale(): Promise<void> {
    try {
      const [text, st] = await Promise.all([readFile(this.path, 'utf8'), stat(this.path)]);
      const age = Date.now() - st.mtimeMs;
      // Earlier versions wrote the pid alone.
      const [pidText, host = hostname(), id] = text.split(' ');
      const pid = Number(pidText);
      const here = host === hostname();
      const dead = here && pid > 0 && (pid === process.pid ? `${pid} ${host} ${id}` !== OWNER : !pidAlive(pid));
      if (dead || (!text && age > EMPTY_STALE_MS) || age > this.staleMs) await unlink(this.path);
    } catch {
      // vanished or half-written: try again
    }
  }
}
