/** Small load-generation helpers for the benchmarks: timed runs at a given concurrency, percentiles. */

export interface LoadResult {
  requests: number;
  seconds: number;
  opsPerSecond: number;
  p50: number;
  p95: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Run `call` `total` times with `concurrency` in flight; latencies in ms. */
export async function load(total: number, concurrency: number, call: (i: number) => Promise<boolean>): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const s = performance.now();
        const ok = await call(i).catch(() => false);
        latencies.push(performance.now() - s);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: total, seconds, opsPerSecond: total / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), errors };
}

export function row(label: string, r: LoadResult): string {
  const mem = process.memoryUsage().rss / 2 ** 20;
  return `${label.padEnd(34)} ${r.opsPerSecond.toFixed(0).padStart(7)} ops/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p95 ${r.p95.toFixed(2).padStart(7)} ms   errors ${r.errors}   rss ${mem.toFixed(0)} MB`;
}
