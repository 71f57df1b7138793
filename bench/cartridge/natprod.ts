/**
 * natprod's side of the cartridge benchmark: the real api process (`node --import tsx
 * api/server.ts`) over a benchmark catalog (DATA_DIR = the set's store, SEED_DEMO=false), waited
 * for until /health says the structure-search index is ready, then asked over HTTP (node:http,
 * one keep-alive connection, one request at a time). Not `fetch`: undici's fetch adds about
 * 0.6 ms of client work to each request on this machine (0.91 against 0.31 ms for a POST to a
 * bare Fastify route, 2026-11-29), a cost of the client that psql, the cartridge's side, does
 * not have.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resident set of a process (VmRSS), bytes; null when it is gone. */
export function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface IndexHealth {
  state: string;
  molecules: number;
  unreadable: number;
  bytes: number;
  build_ms?: number;
  /** Rows the build took from the index's file on disk, and rows it built (docs/search.md). */
  snapshot?: { reused: number; built: number };
}

export class NatprodApi {
  readonly base: string;
  private child: ChildProcess;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private log = '';
  /** From spawning the process to the index being ready, ms. */
  readyMs = 0;

  private constructor(
    readonly port: number,
    dataDir: string,
    threads: number,
  ) {
    this.base = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn', WORKERS: String(threads) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => (this.log = (this.log + b.toString()).slice(-20_000));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the api and waits (up to `timeoutMs`) until its structure-search index is ready. */
  static async start(dataDir: string, threads: number, timeoutMs = 3_600_000): Promise<NatprodApi> {
    const t0 = performance.now();
    const api = new NatprodApi(await freePort(), dataDir, threads);
    for (;;) {
      if (api.child.exitCode !== null || api.child.signalCode) throw new Error(`the api exited (${api.child.exitCode ?? api.child.signalCode}):\n${api.log}`);
      if (performance.now() - t0 > timeoutMs) {
        await api.stop();
        throw new Error(`the api's index was not ready after ${timeoutMs / 1000} s:\n${api.log}`);
      }
      const index = await api.index().catch(() => null);
      if (index?.state === 'ready') break;
      if (index?.state === 'failed') {
        await api.stop();
        throw new Error(`the api's index failed: ${JSON.stringify(index)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    api.readyMs = performance.now() - t0;
    return api;
  }

  /** One request on the kept-alive connection: status and body text. */
  call(method: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = request({ host: '127.0.0.1', port: this.port, method, path, agent: this.agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  async index(): Promise<IndexHealth> {
    const res = await this.call('GET', '/health');
    const body = JSON.parse(res.text) as { structure_search?: { index?: IndexHealth } };
    if (!body.structure_search?.index) throw new Error('no structure_search.index in /health');
    return body.structure_search.index;
  }

  /** POST /api/search; the time is from sending the request to having read the whole answer. */
  async search(body: Record<string, unknown>): Promise<{ ms: number; json: any }> {
    const t = performance.now();
    const { status, text } = await this.call('POST', '/api/search', JSON.stringify(body));
    const ms = performance.now() - t;
    if (status !== 200) throw new Error(`POST /api/search ${JSON.stringify(body)}: ${status} ${text.slice(0, 300)}`);
    return { ms, json: JSON.parse(text) };
  }

  rss(): number | null {
    return rssOf(this.pid);
  }

  async stop(): Promise<void> {
    this.agent.destroy();
    if (this.child.exitCode !== null || this.child.signalCode) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  }
}
