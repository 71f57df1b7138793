/**
 * A worker process's own small HTTP server (WORKER_METRICS_PORT), for orchestrators and
 * Prometheus:
 * - `GET /health/live`: the process answers (restart it if not);
 * - `GET /health/ready` (and `/health`): it can take jobs: Redis answers a PING within a second,
 *   its BullMQ consumers run and its pool has threads; 503 with the failing checks otherwise;
 * - `GET /metrics`: Prometheus text.
 */
import { createServer, type Server } from 'node:http';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';

export interface HealthSources {
  version: string;
  redis: Redis;
  consumersRunning: () => boolean;
  threads: () => number;
  registry: Registry;
  /** Extra fields of the readiness answer (e.g. the structure-search index). */
  details?: () => Record<string, unknown>;
}

async function redisAnswers(redis: Redis): Promise<boolean> {
  const timeout = new Promise<boolean>((r) => setTimeout(() => r(false), 1_000).unref());
  return Promise.race([redis.ping().then((p) => p === 'PONG', () => false), timeout]);
}

export async function readiness(s: HealthSources): Promise<{ ready: boolean; checks: Record<string, boolean> }> {
  const checks = { redis: await redisAnswers(s.redis), consumers: s.consumersRunning(), threads: s.threads() > 0 };
  return { ready: Object.values(checks).every(Boolean), checks };
}

export function healthServer(s: HealthSources): Server {
  return createServer(async (req, res) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (path === '/health/live') return send(200, { status: 'OK', version: s.version });
    if (path === '/health' || path === '/health/ready') {
      const { ready, checks } = await readiness(s);
      return send(ready ? 200 : 503, { status: ready ? 'OK' : 'NOT_READY', version: s.version, checks, threads: s.threads(), ...s.details?.() });
    }
    if (path === '/metrics') return send(200, await s.registry.metrics(), s.registry.contentType);
    return send(404, { detail: 'Not Found' });
  });
}
