/**
 * Lists of structures sent to the chemistry threads in batches, a few batches in flight. A batch
 * that fails as a client error (one structure that faults RDKit's WASM takes its whole task
 * down) is retried one item at a time, so only that item comes back null. Exports (molblocks)
 * and the bulk look-up (InChIKeys) use it.
 */
import { AppError } from '../../shared/errors.ts';

/** Runs `fn(0..n-1)`, `width` at a time (stops between calls once `signal` aborts). */
export async function lanes(n: number, width: number, fn: (i: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) {
      signal?.throwIfAborted();
      await fn(next++);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, n) }, lane));
}

/** `task` over `items` in batches of `size`, `inFlight` at once; answers in input order. */
export function batched<T>(task: (batch: string[]) => Promise<(T | null)[]>, size: number, inFlight: number): (items: string[]) => Promise<(T | null)[]> {
  const one = async (items: string[]): Promise<(T | null)[]> => {
    try {
      return await task(items);
    } catch (e) {
      if (!AppError.from(e)?.isClientError) throw e;
      if (items.length === 1) return [null];
      const out: (T | null)[] = [];
      for (const s of items) out.push(...(await one([s])));
      return out;
    }
  };
  return async (items) => {
    const chunks: string[][] = [];
    for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
    const results: (T | null)[][] = new Array(chunks.length);
    await lanes(chunks.length, inFlight, async (i) => {
      results[i] = await one(chunks[i]!);
    });
    return results.flat();
  };
}
