/**
 * The fuzzer's cases against `npm start` as deployed, in a process of its own: the measurement of
 * issue 3 (the api's RSS over thousands of hostile requests, closed connections, 5xx), which
 * `npm run fuzz` cannot make since its server shares the process, and the heap, with the
 * fuzzer's own requests of up to 20 MB.
 *
 * The api (inline mode, defaults, rate limits off) gets the LOTUS demo set, imported at its start
 * as `npm start` does, and a hostile stand-in for PubChem (test/fuzz/fake-extdb.ts). Then
 * FUZZ_WARMUP cases (numbered after the measured ones), then FUZZ_CASES cases of FUZZ_SEED, 24 at
 * a time over keep-alive connections (test/fuzz/client.ts). Printed: the api's RSS (median of five
 * readings a second apart, while it is idle) after the demo import, after the warm-up and at the
 * end, its main V8 heap and its RDKit threads' WebAssembly memory (from /metrics), then the
 * statuses, the connections closed without an answer, the 5xx (a 503 of the external service
 * apart) and whether /health still answers. Exit code 1 when any of these is wrong.
 *
 *   node --import tsx bench/fuzz-api.ts                       # 20,000 cases after 2,000
 *   FUZZ_CASES=3000 FUZZ_WARMUP=0 node --import tsx bench/fuzz-api.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type Answer } from '../test/fuzz/client.ts';
import { startFakeExtdb } from '../test/fuzz/fake-extdb.ts';
import { generateCase } from '../test/fuzz/targets.ts';
import type { Case, Context } from '../test/fuzz/types.ts';
import { freePort, INHERITED, ROOT, rssMB, sleep, startService, stopService } from './services.ts';

const int = (name: string, d: number) => (process.env[name] && /^\d+$/.test(process.env[name]!) ? Number(process.env[name]) : d);
const SEED = int('FUZZ_SEED', 1);
const CASES = int('FUZZ_CASES', 20_000);
const WARMUP = int('FUZZ_WARMUP', 2_000);
const CONCURRENCY = int('FUZZ_CONCURRENCY', 24);
const TMP = mkdtempSync(join(tmpdir(), 'natprod-fuzz-api-'));

const extdb = await startFakeExtdb();
const port = await freePort();
const api = startService('api', 'api/server.ts', { DATA_DIR: join(TMP, 'data'), SEED_DEMO: 'true', PORT: String(port), EXTDB_URL: extdb.url }, port, TMP);
const alive = () => api.child.exitCode === null && api.child.signalCode === null;
const get = (path: string) => fetch(`${api.base}${path}`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.text(), () => '');

try {
  for (const end = Date.now() + 600_000; ; await sleep(500)) {
    if (!alive()) throw new Error(`the api exited; see ${api.log}`);
    const h = JSON.parse((await get('/health')) || '{}') as { demo_import?: { state?: string }; structure_search?: { index?: { state?: string } } };
    if (h.demo_import?.state === 'done' && h.structure_search?.index?.state === 'ready') break;
    if (Date.now() > end) throw new Error('demo import not done within 10 minutes');
  }
  const token = (role: string) => execFileSync(process.execPath, ['--import', 'tsx', 'api/catalog/cli/token.ts', '--email', `fuzz-${role}@example.org`, '--role', role], {
    cwd: ROOT, env: { ...INHERITED, DATA_DIR: join(TMP, 'data') }, stdio: ['ignore', 'pipe', 'ignore'],
  }).toString().trim().split('\n').at(-1)!;
  const ids = Array.from({ length: 100 }, (_, i) => i + 1);
  const ctx: Context = {
    tokens: { admin: token('admin'), curator: token('curator'), reader: token('reader') },
    adminEmail: 'fuzz-admin@example.org', adminPassword: 'not-the-password',
    ids: { molecules: ids, organisms: ids, citations: ids, collections: ids, users: [1, 2, 3] },
    stored: { smiles: ['CCO'], inchikeys: ['LFQSCWFLJHTTHZ-UHFFFAOYSA-N'] },
  };
  const limits = { bodyLimit: 1_048_576, uploadLimit: 20_971_520 };

  /** RSS (median of five readings), main heap in use and WASM per thread, while the api is idle. */
  const memory = async () => {
    const rss: number[] = [];
    for (let i = 0; i < 5; i++, await sleep(1000)) rss.push(rssMB(api));
    const metrics = await get('/metrics');
    const value = (re: RegExp) => [...metrics.matchAll(re)].map((m) => Math.round(Number(m[1]) / 2 ** 20));
    const median = rss.sort((a, b) => a - b)[2]!;
    return { rss: Math.round(median), text: `rss ${Math.round(median)} MB (main heap in use ${value(/^nodejs_heap_size_used_bytes\{[^}]*\} (\S+)/gm).join('')} MB; WASM per thread ${value(/^natprod_wasm_memory_bytes\{[^}]*\} (\S+)/gm).join('/')} MiB)` };
  };

  const client = new Client('127.0.0.1', port, 120_000, CONCURRENCY + 40);
  const statuses: Record<string, number> = {};
  const found = { closed: 0, noAnswer: 0, fiveXX: 0 };
  const examples: string[] = [];
  const count = (i: number, c: Case, a: Answer) => {
    const key = a.timedOut ? 'no answer' : a.dropped ? 'closed' : String(a.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
    const bad = a.retried || a.dropped ? 'closed' : a.timedOut ? 'noAnswer' : (a.status ?? 0) >= 500 && !(a.status === 503 && c.external) && a.status !== 504 ? 'fiveXX' : undefined;
    if (!bad) return;
    found[bad]++;
    if (examples.length < 10) examples.push(`#${i} ${c.target} ${c.label}: ${a.retried ?? a.dropped ?? a.status} ${a.body?.subarray(0, 300).toString() ?? ""}`);
  };
  const run = async (first: number, n: number, label: string) => {
    let next = first;
    let done = 0;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < first + n) {
        const i = next++;
        const c = generateCase(SEED, i, ctx, limits);
        const answers = await Promise.all(Array.from({ length: c.burst ?? 1 }, () => client.send(c.req)));
        for (const a of answers) count(i, c, a);
        if (++done % Math.max(1, Math.floor(n / 10)) === 0) console.log(`  ${label}${done}/${n} cases, ${((Date.now() - t0) / 1000).toFixed(0)} s, rss ${Math.round(rssMB(api))} MB`);
      }
    }));
  };

  const start = await memory();
  console.log(`fuzz of npm start: seed ${SEED}, ${CASES} cases after ${WARMUP} of warm-up, ${CONCURRENCY} at a time; after the demo import: ${start.text}`);
  if (WARMUP) await run(CASES, WARMUP, 'warm-up: ');
  const warm = await memory();
  if (WARMUP) console.log(`after the warm-up: ${warm.text}`);
  await run(0, CASES, '');
  const end = await memory();
  client.close();
  const healthy = alive() && (await fetch(`${api.base}/health`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status === 200, () => false));
  const growth = ((end.rss - warm.rss) / warm.rss) * 100;
  console.log(`at the end: ${end.text}`);
  console.log(`statuses: ${Object.entries(statuses).sort().map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  console.log(`rss over the measured cases: ${warm.rss} MB → ${end.rss} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %)`);
  console.log(`closed connections: ${found.closed}   no answer: ${found.noAnswer}   5xx: ${found.fiveXX}   /health answers at the end: ${healthy ? 'yes' : 'NO'}${examples.length ? `\n  ${examples.join('\n  ')}` : ''}`);
  process.exitCode = found.closed || found.noAnswer || found.fiveXX || !healthy ? 1 : 0;
  if (process.exitCode) console.log(`the api's log: ${api.log}`);
} finally {
  await stopService(api);
  await extdb.close();
  if (process.exitCode === 0) rmSync(TMP, { recursive: true, force: true });
}
