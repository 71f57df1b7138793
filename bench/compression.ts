/**
 * HTTP compression (api/plugins/compress.ts, docs/operations.md "Compression"): what it costs and
 * what it saves, over HTTP against two apis started in this process (inline runner, one chemistry
 * thread each), one with compression (COMPRESS_MIN_BYTES=1024, the default) and one without (0).
 *
 *   node --import tsx bench/compression.ts [N=2000] [M=300]
 *
 * 1. A quick call (`/latest/convert/canonicalsmiles`, a 5-byte answer) 3 × N times per api,
 *    sequential on one keep-alive connection, with `Accept-Encoding: gzip, deflate, br` (what
 *    browsers and curl --compressed send), alternating between the apis: p50, p99, mean.
 * 2. The onSend hook alone on such a small answer (no HTTP): ns per call.
 * 3. A 50-record catalog search (`POST /api/molecules/search`, 60 LOTUS demo molecules created
 *    through mutate first), 3 × M times each raw, gzip and br, alternating: bytes, p50, p99, mean.
 * 4. That search's JSON compressed by node:zlib alone, per codec and level (ms per call, bytes):
 *    why brotli runs at quality 4 and not its default 11.
 * Prints tables; asserts nothing.
 */
import { request, Agent } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildApp } from '../api/app.ts';
import { createServices, type Services } from '../api/services.ts';
import { ensureUser, issueToken } from '../api/catalog/auth/auth.ts';
import { compressHook } from '../api/plugins/compress.ts';
import { loadConfig } from '../shared/config.ts';
import { lotusSmiles } from './services.ts';

const [N, M] = [Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 300)];
/** Rounds of N (M) requests, alternating between what is compared. */
const TRIALS = 3;
const ACCEPT = 'gzip, deflate, br';

interface Api {
  app: FastifyInstance;
  services: Services;
  base: string;
  dir: string;
}

async function start(minBytes: string): Promise<Api> {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-bench-compress-'));
  const config = loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false', WORKERS: '1', LOG_LEVEL: 'warn', COMPRESS_MIN_BYTES: minBytes, RATE_LIMIT_QUICK: '0', RATE_LIMIT_LONG: '0', RATE_LIMIT_WRITES: '0' });
  const services = await createServices(config);
  const app = await buildApp({ services });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, services, base, dir };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request; resolves with the answer's bytes as sent (not decoded) and the ms it took. */
function call(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ ms: number; bytes: number; encoding?: string; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes, encoding: res.headers['content-encoding'], status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f3 = (x: number) => x.toFixed(3);

async function main() {
  console.log(`node ${process.version}, ${availableParallelism()} cores, load ${loadavg()[0].toFixed(2)}; N=${N}, M=${M}, ${TRIALS} rounds, alternating`);
  const on = await start('1024');
  const off = await start('0');
  try {
    // 1. The quick call, on both apis.
    const quick = (api: Api) => `${api.base}/latest/convert/canonicalsmiles?smiles=${encodeURIComponent('OCC')}`;
    for (const api of [on, off]) for (let i = 0; i < 200; i++) await call(quick(api), { headers: { 'accept-encoding': ACCEPT } }); // warm-up
    const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
    let quickBytes = 0;
    // Request by request, alternating (which goes first alternates too): drift on a busy machine hits both.
    for (let i = 0; i < N * TRIALS; i++) {
      for (const [name, api] of i % 2 ? ([['on', on], ['off', off]] as const) : ([['off', off], ['on', on]] as const)) {
        const r = await call(quick(api), { headers: { 'accept-encoding': ACCEPT } });
        if (r.status !== 200 || r.encoding) throw new Error(`quick call: ${r.status} ${r.encoding ?? ''}`);
        quickBytes = r.bytes;
        times[name].push(r.ms);
      }
    }
    console.log(`\n1. quick call (canonical SMILES, ${quickBytes}-byte answer, never encoded), ${N * TRIALS} sequential requests per api`);
    console.log('| compression | p50 ms | p99 ms | mean ms |\n|---|---|---|---|');
    for (const name of ['on', 'off'] as const) console.log(`| ${name} | ${f3(pct(times[name], 50))} | ${f3(pct(times[name], 99))} | ${f3(mean(times[name]))} |`);

    // 2. The hook alone, on a small answer.
    const hook = compressHook(1024);
    const reply = { statusCode: 200, getHeader: (h: string) => (h === 'content-type' ? 'application/json' : undefined), hasHeader: () => false } as unknown as FastifyReply;
    const req = { method: 'GET', headers: { 'accept-encoding': ACCEPT } } as unknown as FastifyRequest;
    const payload = '"CCO"';
    const K = 1_000_000;
    const h0 = performance.now();
    for (let i = 0; i < K; i++) hook.call(on.app, req, reply, payload, () => {});
    console.log(`\n2. the onSend hook on a small JSON answer: ${(((performance.now() - h0) / K) * 1e6).toFixed(0)} ns per call`);

    // 3. A 50-record catalog search.
    const admin = await ensureUser(on.services.store, 'bench@example.org', 'admin');
    const auth = `Bearer ${await issueToken(on.services.store, admin.id)}`;
    const smiles = (await lotusSmiles()).slice(0, 60);
    const created = await call(`${on.base}/api/molecules/mutate`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ mutate: smiles.map((s, i) => ({ operation: 'create', attributes: { name: `lotus ${i}`, canonical_smiles: s } })) }),
    });
    if (created.status !== 200) throw new Error(`mutate: ${created.status}`);
    const body = JSON.stringify({ search: { limit: 50 } });
    const search = (enc?: string) => call(`${on.base}/api/molecules/search`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', ...(enc ? { 'accept-encoding': enc } : {}) }, body });
    const kinds = [['raw', undefined], ['gzip', 'gzip'], ['br', 'br']] as const;
    for (const [, enc] of kinds) for (let i = 0; i < 30; i++) await search(enc); // warm-up
    const res: Record<string, { ms: number[]; bytes: number }> = {};
    for (let i = 0; i < M * TRIALS; i++) {
      for (const [name, enc] of kinds) {
        const r = await search(enc);
        if (r.status !== 200 || r.encoding !== enc) throw new Error(`search ${name}: ${r.status} ${r.encoding ?? ''}`);
        (res[name] ??= { ms: [], bytes: 0 }).ms.push(r.ms);
        res[name].bytes = r.bytes;
      }
    }
    console.log(`\n3. catalog search, 50 records, ${M * TRIALS} sequential requests each`);
    console.log('| answer | bytes | p50 ms | p99 ms | mean ms |\n|---|---|---|---|---|');
    for (const [name] of kinds) console.log(`| ${name} | ${res[name].bytes} | ${f3(pct(res[name].ms, 50))} | ${f3(pct(res[name].ms, 99))} | ${f3(mean(res[name].ms))} |`);

    // 4. The codecs alone, on that answer.
    const json = (await on.app.inject({ method: 'POST', url: '/api/molecules/search', headers: { authorization: auth }, payload: JSON.parse(body) as object })).rawPayload;
    const codecs: [string, () => Buffer][] = [
      ['gzip level 1', () => gzipSync(json, { level: 1 })],
      ['gzip level 6 (used)', () => gzipSync(json, { level: 6 })],
      ['gzip level 9', () => gzipSync(json, { level: 9 })],
      ...[1, 4, 6, 11].map((q): [string, () => Buffer] => [`br quality ${q}${q === 4 ? ' (used)' : q === 11 ? ' (default)' : ''}`, () => brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } })]),
    ];
    console.log(`\n4. node:zlib alone on that ${json.length}-byte JSON (one thread)`);
    console.log('| codec | bytes | ratio | ms per call |\n|---|---|---|---|');
    for (const [name, fn] of codecs) {
      for (let i = 0; i < 5; i++) fn();
      const reps = 50;
      const t0 = performance.now();
      let out: Buffer = Buffer.alloc(0);
      for (let i = 0; i < reps; i++) out = fn();
      console.log(`| ${name} | ${out.length} | ${(json.length / out.length).toFixed(1)} | ${f3((performance.now() - t0) / reps)} |`);
    }
  } finally {
    agent.destroy();
    for (const api of [on, off]) {
      await api.app.close();
      await api.services.close(0);
      await rm(api.dir, { recursive: true, force: true });
    }
  }
}

await main();
