/**
 * A cross-process lock file plus an in-process queue, re-entrant within one async call chain.
 * The lock file holds the owner's pid; a lock whose owner is dead, or that is older than
 * `staleMs` (a crashed owner on another pid namespace), is broken.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { open, readFile, stat, unlink } from 'node:fs/promises';

const held = new AsyncLocalStorage<Set<string>>();

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

  /** Runs fn holding the lock; nested calls from inside fn do not wait for themselves. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const mine = held.getStore();
    if (mine?.has(this.path)) return fn();
    let release!: () => void;
    const prev = this.queue;
    this.queue = new Promise<void>((r) => (release = r));
    await prev;
    try {
      await this.acquire();
      try {
        const set = new Set(mine ?? []);
        set.add(this.path);
        return await held.run(set, fn);
      } finally {
        await unlink(this.path).catch(() => undefined);
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
        const fh = await open(this.path, 'wx');
        await fh.writeFile(String(process.pid));
        await fh.close();
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
      const pid = Number(text);
      const old = Date.now() - st.mtimeMs > this.staleMs;
      if ((pid > 0 && pid !== process.pid && !pidAlive(pid)) || old) await unlink(this.path);
    } catch {
      // vanished or half-written: try again
    }
  }
}
