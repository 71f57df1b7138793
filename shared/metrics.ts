/**
 * Prometheus metrics of one process (api or worker), each with its own registry. Labels are
 * bounded: operation names come from the registry, never SMILES, ids or paths with values.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobObserver } from './jobs/executor.ts';
import type { QueueDepth } from './jobs/types.ts';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  jobObserver: JobObserver;
  /** Sampled at scrape time; `wasm`: bytes of each thread's RDKit WebAssembly memory. */
  watchPool(utilization: () => number, threads: () => number, wasm?: () => number[]): void;
  watchQueues(depth: () => Promise<QueueDepth[]>): void;
}

export function createMetrics(role: 'api' | 'worker', version: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });

  new Gauge({ name: 'natprod_build_info', help: 'Release version of this process', labelNames: ['version'], registers: [registry] })
    .set({ version }, 1);

  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route template and status class',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template and status class',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'natprod_jobs_total',
    help: 'Finished chemistry jobs by operation and outcome',
    labelNames: ['op', 'outcome'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'natprod_job_duration_seconds',
    help: 'Run time of finished chemistry jobs by operation and outcome',
    labelNames: ['op', 'outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers: [registry],
  });

  // Distributed mode, api: quick calls travel several to a BullMQ job (shared/jobs/batcher.ts).
  // Full batches mean the Redis and BullMQ costs are shared; many batches sent while nothing was in
  // flight mean the workers waited for calls (light load) rather than calls for workers.
  const batchCalls = new Histogram({
    name: 'natprod_batch_calls',
    help: 'Quick calls per batch job sent by this api (distributed mode)',
    labelNames: ['in_flight'] as const,
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: role === 'api' ? [registry] : [],
  });

  return {
    registry,
    httpRequests,
    httpDuration,
    jobObserver: {
      finished(op, outcome, seconds) {
        jobs.inc({ op, outcome });
        jobDuration.observe({ op, outcome }, Math.max(0, seconds));
      },
      batched(calls, idle) {
        batchCalls.observe({ in_flight: idle ? 'none' : 'some' }, calls);
      },
    },
    watchPool(utilization, threads, wasm) {
      new Gauge({
        name: 'natprod_pool_utilization',
        help: 'Share of the chemistry thread pool busy since it started (Piscina utilization, 0..1)',
        registers: [registry],
        collect() {
          this.set(utilization());
        },
      });
      new Gauge({
        name: 'natprod_pool_threads',
        help: 'Chemistry worker threads in this process',
        registers: [registry],
        collect() {
          this.set(threads());
        },
      });
      if (wasm) {
        new Gauge({
          name: 'natprod_wasm_memory_bytes',
          help: 'RDKit WebAssembly memory of each chemistry thread (it never shrinks: growth over time is a leak)',
          labelNames: ['thread'] as const,
          registers: [registry],
          collect() {
            this.reset();
            wasm().forEach((bytes, i) => this.set({ thread: String(i) }, bytes));
          },
        });
      }
    },
    watchQueues(depth) {
      // Each gauge samples at scrape time; depth() is a cheap count (a few Redis commands).
      const gauge = (name: string, help: string, pick: (d: QueueDepth) => number) =>
        new Gauge({
          name,
          help,
          labelNames: ['queue'] as const,
          registers: [registry],
          async collect() {
            try {
              for (const d of await depth()) this.set({ queue: d.queue }, pick(d));
            } catch {
              // Redis down: leave the last values; /health and the logs report the outage.
            }
          },
        });
      gauge('natprod_queue_waiting', 'Jobs waiting per queue', (d) => d.waiting);
      gauge('natprod_queue_active', 'Jobs running per queue', (d) => d.active);
    },
  };
}
