/**
 * What toolkit=cdk and toolkit=openbabel cost beside RDKit, through the REST routes (inline runner,
 * WORKERS threads, Fastify inject: no sockets), on the 72 LOTUS SMILES of
 * test/fixtures/convert-reference.json:
 *
 *   node --import tsx bench/toolkits.ts [calls per case, default 600] [in flight, default 8]
 *
 * Cases: canonical SMILES (rdkit, openbabel, and cdk: CDK's absolute SMILES numbered by InChI through
 * JNI-InChI), InChI (rdkit, cdk, openbabel), 2D molblock (rdkit, cdk, openbabel) and descriptors (rdkit, cdk). Each case runs once to warm up (sidecar
 * start, JIT), then is timed: calls/s, p50 and p99 in ms. The sidecar's own cost per call is
 * the round trip of a `ping` (no chemistry) to each sidecar, one at a time, and with 8 in flight.
 * Prints figures, asserts nothing.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../api/app.ts';
import { createServices } from '../api/services.ts';
import { loadConfig } from '../shared/config.ts';

const N = Number(process.argv[2] ?? 600);
const IN_FLIGHT = Number(process.argv[3] ?? 8);
const smiles: string[] = JSON.parse(readFileSync(new URL('../test/fixtures/convert-reference.json', import.meta.url), 'utf8')).records.map((r: { input_smiles: string }) => r.input_smiles);

const config = loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'natprod-bench-')), SEED_DEMO: 'false', LOG_LEVEL: 'silent', RATE_LIMIT_QUICK: '0' });
const services = await createServices(config);
const app = await buildApp({ services });

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(n: number, call: (i: number) => Promise<number>) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) {
        const i = next++;
        const s = performance.now();
        const status = await call(i);
        times.push(performance.now() - s);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return { rate: n / seconds, p50: pct(times, 50), p99: pct(times, 99), statuses: [...statuses].map(([k, v]) => `${k}×${v}`).join(' ') };
}

const cases: [string, string, string][] = [
  ['canonical SMILES', '/convert/canonicalsmiles', 'rdkit'],
  ['canonical SMILES', '/convert/canonicalsmiles', 'openbabel'],
  ['canonical SMILES', '/convert/canonicalsmiles', 'cdk'],
  ['InChI', '/convert/inchi', 'rdkit'],
  ['InChI', '/convert/inchi', 'cdk'],
  ['InChI', '/convert/inchi', 'openbabel'],
  ['2D molblock', '/convert/mol2D', 'rdkit'],
  ['2D molblock', '/convert/mol2D', 'cdk'],
  ['2D molblock', '/convert/mol2D', 'openbabel'],
  ['descriptors', '/chem/descriptors', 'rdkit'],
  ['descriptors', '/chem/descriptors', 'cdk'],
];
console.log(`natprod toolkits bench: ${N} calls per case, ${IN_FLIGHT} in flight, ${config.WORKERS} RDKit threads`);
console.log('| operation | toolkit | calls/s | p50 ms | p99 ms | answers |');
console.log('|---|---|---|---|---|---|');
for (const [label, url, toolkit] of cases) {
  const call = async (i: number) => (await app.inject({ url, query: { smiles: smiles[i % smiles.length], toolkit } })).statusCode;
  await measure(Math.min(N, 100), call); // warm-up: sidecar start, JIT, caches
  const r = await measure(N, call);
  console.log(`| ${label} | ${toolkit} | ${r.rate.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.statuses} |`);
}

console.log('\nsidecar round trip (`ping`, no chemistry):');
for (const toolkit of ['cdk', 'openbabel'] as const) {
  const s = services.toolkits.sidecar(toolkit);
  const one = async () => (await s.call({ op: 'ping' }), 200);
  let serial: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    await one();
    serial.push(performance.now() - t0);
  }
  serial = serial.sort((a, b) => a - b);
  const par = await measure(5000, one);
  console.log(`  ${toolkit}: one at a time p50 ${(pct(serial, 50) * 1000).toFixed(0)} µs, p99 ${(pct(serial, 99) * 1000).toFixed(0)} µs; ${IN_FLIGHT} in flight ${par.rate.toFixed(0)} calls/s`);
}
console.log('health:', JSON.stringify(services.health().toolkits));
await app.close();
await services.close();
