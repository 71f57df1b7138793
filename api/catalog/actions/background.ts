/**
 * Work the catalog starts from a request and finishes after answering (queued actions such as
 * `recompute-properties`). The owner awaits `close()` before closing the store, so nothing is cut
 * off half-written; tests await `idle()`.
 */
export interface BackgroundLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(readonly log: BackgroundLog) {}

  /** Starts `fn`; its failure is logged (the request that started it has already been answered). */
  run(label: string, fn: (signal: AbortSignal) => Promise<void>): void {
    const p = fn(this.abort.signal)
      .catch((err: unknown) => {
        if (!this.abort.signal.aborted) this.log.error(`${label} failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Resolves when every started task has finished, including tasks started meanwhile. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  /** Asks running tasks to stop (they check the signal between items) and waits for them. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.idle();
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight, stopping early when aborted. */
export async function eachLimited<T>(items: T[], limit: number, signal: AbortSignal, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !signal.aborted) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
