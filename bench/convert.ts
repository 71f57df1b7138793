/**
 * Throughput of `canonicalsmiles` three ways: a direct call on the Piscina pool, HTTP in inline
 * mode (one process), and HTTP in bullmq mode (this process as api + one worker process). Inputs
 * are the LOTUS natural products of the conversion fixture. Prints figures; asserts nothing.
 *
 *   npm run bench                       (WORKERS threads per pool, default 2; N requests, default 2000)
 *   N=5000 C=32 WORKERS=2 npm run bench
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../api/app.ts';
import { createServices } from '../api/services.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { createPool, runTask } from '../shared/threads/pool.ts';
import { load, row } from './load.ts';

const N = Number(process.env.N ?? 2000);
const C = Number(process.env.C ?? 16);
const THREADS = process.env.WORKERS ?? '2';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const smiles = (JSON.parse(readFileSync(new URL('../test/fixtures/convert-reference.json', import.meta.url), 'utf8')).records as { input_smiles: string }[]).map((r) => r.input_smiles);
const pickSmiles = (i: number) => smiles[i % smiles.length];

console.log(`canonicalsmiles, ${N} requests, concurrency ${C}, ${THREADS} chemistry threads, ${smiles.length} natural products`);

{
  const pool = createPool(Number(THREADS), threadConfig(loadConfig()));
  await runTask(pool, 'generate_canonical_smiles', { smiles: 'C', toolkit: 'rdkit' }, { timeoutMs: 30_000 });
  const r = await load(N, C, async (i) => typeof (await runTask(pool, 'generate_canonical_smiles', { smiles: pickSmiles(i), toolkit: 'rdkit' }, { timeoutMs: 30_000 })) === 'string');
  console.log(row('direct pool call', r));
  await pool.destroy();
}

async function overHttp(label: string, env: Record<string, string>) {
  const config = loadConfig({ ...env, DATA_DIR: await mkdtemp(join(tmpdir(), 'natprod-bench-')), SEED_DEMO: 'false', WORKERS: THREADS, LOG_LEVEL: 'silent', PORT: '0', RATE_LIMIT_QUICK: '0' });
  const services = await createServices(config);
  const app = await buildApp({ services });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (i: number) => (await fetch(`${base}/latest/convert/canonicalsmiles?smiles=${encodeURIComponent(pickSmiles(i))}`)).status === 200;
  await load(50, 4, get); // warm up
  console.log(row(label, await load(N, C, get)));
  await app.close();
  await services.close();
}

await overHttp('HTTP, inline mode', {});

const prefix = `natprod-bench-${process.pid}`;
const worker = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
  env: { ...process.env, REDIS_URL: REDIS, QUEUE_PREFIX: prefix, WORKERS: THREADS, WORKER_METRICS_PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  worker.stdout.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve());
  worker.on('exit', (code) => reject(new Error(`worker exited with ${code} (is Redis running at ${REDIS}?)`)));
});
try {
  await overHttp('HTTP, bullmq mode (api + 1 worker)', { REDIS_URL: REDIS, QUEUE_PREFIX: prefix });
} finally {
  worker.kill('SIGTERM');
}
