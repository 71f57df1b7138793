/**
 * Redis for tests: REDIS_URL if set, else a server answering on 127.0.0.1:6379, else a
 * `redis-server` started on a free port for this test file. Without any, the caller skips its
 * BullMQ tests with a loud SKIPPED line (never silently).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** Whether a Redis server answers PING at `url` within `timeoutMs`. */
export async function answers(url: string, timeoutMs = 1000): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: timeoutMs, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

export async function testRedis(): Promise<TestRedis | undefined> {
  const candidates = [process.env.REDIS_URL, 'redis://127.0.0.1:6379'].filter(Boolean) as string[];
  for (const url of candidates) if (await answers(url)) return { url, stop: async () => {} };
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const started = await new Promise<boolean>((resolve) => {
    child.on('error', () => resolve(false));
    const url = `redis://127.0.0.1:${port}`;
    let tries = 0;
    const poll = async () => {
      if (await answers(url)) return resolve(true);
      if (++tries > 50) return resolve(false);
      setTimeout(poll, 100);
    };
    void poll();
  });
  if (!started) {
    child.kill();
    console.warn('#### SKIPPED: no Redis (REDIS_URL, 127.0.0.1:6379, or a redis-server binary): BullMQ tests not run ####');
    return undefined;
  }
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void child.kill() };
}

/** A queue prefix of its own for each test file, so runs never see each other's jobs. */
export const testPrefix = () => `natprod-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
