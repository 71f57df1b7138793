/**
 * Does the distributed api keep anything per request? Its RSS under load moves by tens of MB
 * between readings (garbage waiting for the collector), which hides slow growth. This bench
 * starts the api (with the inspector on a local port) and one worker process on the Redis at
 * REDIS_URL, and after a warm-up and after each of ROUNDS rounds of N canonical-SMILES requests
 * (autocannon, 32 connections, the distinct LOTUS demo SMILES in turn) has the api collect its
 * garbage three times through the inspector, then prints its live heap, RSS and external memory.
 * Prints figures; asserts nothing.
 *
 *   node --experimental-websocket --import tsx bench/api-heap.ts [N=100000] [ROUNDS=3]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, lotusSmiles, ROOT, sleep } from './services.ts';

const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 3);
if (typeof WebSocket === 'undefined') throw new Error('run with node --experimental-websocket (Node 20) for the inspector client');

const SMILES = (await lotusSmiles()).map(encodeURIComponent);

const [port, inspectPort] = [await freePort(), await freePort()];
const dataDir = mkdtempSync(join(tmpdir(), 'natprod-api-heap-'));
const env = {
  ...process.env, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', QUEUE_PREFIX: `api-heap-${process.pid}`,
  SEED_DEMO: 'false', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_QUICK: '0',
};
const api = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectPort}`, '--import', 'tsx', 'api/server.ts'], { cwd: ROOT, env, stdio: 'ignore' });
const worker = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], { cwd: ROOT, env: { ...env, WORKER_METRICS_PORT: '0' }, stdio: 'ignore' });
const stop = () => {
  api.kill('SIGKILL');
  worker.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);

const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (await fetch(`${base}/latest/chem/health`).then((r) => r.ok, () => false)) break;
  if (i > 240) throw new Error('the api did not answer within 2 minutes');
  await sleep(500);
}

// The inspector protocol over its WebSocket: HeapProfiler.collectGarbage, Runtime.evaluate.
const [target] = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
const ws = new WebSocket(target!.webSocketDebuggerUrl);
await new Promise((resolve, reject) => (ws.addEventListener('open', resolve), ws.addEventListener('error', reject)));
let seq = 0;
const waiting = new Map<number, (result: any) => void>();
ws.addEventListener('message', (e) => {
  const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
  if (msg.id === undefined) return; // an event, not an answer
  waiting.get(msg.id)?.(msg.result);
  waiting.delete(msg.id);
});
const call = (method: string, params: Record<string, unknown> = {}) =>
  new Promise<any>((resolve) => {
    waiting.set(++seq, resolve);
    ws.send(JSON.stringify({ id: seq, method, params }));
  });

const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
async function memory(): Promise<string> {
  for (let i = 0; i < 3; i++) {
    await call('HeapProfiler.collectGarbage');
    await sleep(200);
  }
  const r = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  const m = JSON.parse(r.result.value as string) as NodeJS.MemoryUsage;
  return `live heap ${mib(m.heapUsed)} (heap total ${mib(m.heapTotal)}), RSS ${mib(m.rss)}, external ${mib(m.external)}`;
}

let next = 0;
const load = (amount: number) =>
  autocannon({
    url: base, connections: 32, amount,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/latest/convert/canonicalsmiles?smiles=${SMILES[next++ % SMILES.length]!}` }) }],
  });

console.log(`distributed api (1 worker process), ${SMILES.length} distinct LOTUS SMILES, ${ROUNDS} rounds of ${N} requests; memory after 3 full collections`);
await load(20_000);
console.log(`after a 20,000-request warm-up: ${await memory()}`);
for (let round = 1; round <= ROUNDS; round++) {
  const r = await load(N);
  console.log(`after round ${round} (${r.requests.average.toFixed(0)} req/s, non-2xx ${r.non2xx}): ${await memory()}`);
}
ws.close();
process.exit(0);
