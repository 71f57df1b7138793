/**
 * What reading names with OPSIN costs: the bridge JVM's start, its per-name latency cold and warm,
 * its throughput, and its memory.
 *
 *   node --import tsx bench/names.ts
 *
 * Names: the distinct IUPAC names of the LOTUS demo files (api/catalog/data). Figures:
 * - compile: the bridge compiled into a fresh cache directory (first use on a machine);
 * - start: JVM start to READY (bridge already compiled; includes OPSIN's warm-up name);
 * - first pass: every name once, one at a time, on the fresh JVM (JIT still warming);
 * - warm pass: the same names again; median, p90, mean in ms per name including the pipe
 *   round trip, and names/s with 64 in flight (the bridge serializes them);
 * - RSS of the JVM after both passes.
 * Prints figures, asserts nothing. Needs a Java runtime and OPSIN (docs/names.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { OpsinProcess } from '../api/names/opsin.ts';
import { compileBridge, locateOpsin } from '../api/names/opsin-setup.ts';

const setup = locateOpsin();
if (!setup.java || !setup.jar) {
  console.log(`no OPSIN: ${setup.problem}`);
  process.exit(0);
}

const names = new Set<string>();
for (const [file, col] of [['lotus_sample_1000.tsv.gz', 'structure_nameIupac'], ['lotus_manually_validated_413.tsv.gz', 'structureCleaned_nameIupac']]) {
  const lines = gunzipSync(readFileSync(new URL(`../api/catalog/data/${file}`, import.meta.url))).toString('utf8').split('\n').filter(Boolean);
  const at = lines[0].split('\t').indexOf(col);
  for (const l of lines.slice(1)) if (l.split('\t')[at]) names.add(l.split('\t')[at]);
}
const list = [...names];

const cache = mkdtempSync(join(tmpdir(), 'natprod-bench-'));
let t0 = performance.now();
await compileBridge(setup.java, setup.jar, cache);
const compileMs = performance.now() - t0;

const opsin = new OpsinProcess({ java: setup.java, jar: setup.jar, timeoutMs: 30_000, idleMs: 0, cacheDir: cache });
t0 = performance.now();
await opsin.parse('ethanol');
const startMs = performance.now() - t0;

async function pass(): Promise<number[]> {
  const times: number[] = [];
  for (const n of list) {
    const s = performance.now();
    await opsin.parse(n);
    times.push(performance.now() - s);
  }
  return times.sort((a, b) => a - b);
}
const fmt = (t: number[]) =>
  `median ${t[t.length >> 1].toFixed(2)} ms, p90 ${t[Math.floor(t.length * 0.9)].toFixed(2)} ms, mean ${(t.reduce((a, b) => a + b) / t.length).toFixed(2)} ms`;

const first = await pass();
const warm = await pass();
t0 = performance.now();
for (let i = 0; i < list.length; i += 64) await Promise.all(list.slice(i, i + 64).map((n) => opsin.parse(n)));
const rate = list.length / ((performance.now() - t0) / 1000);
const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(opsin.pid)]).toString().trim()) / 1024;

console.log(`OPSIN ${opsin.version}, ${list.length} LOTUS IUPAC names`);
console.log(`compile bridge: ${compileMs.toFixed(0)} ms; JVM start to first answer: ${startMs.toFixed(0)} ms`);
console.log(`first pass: ${fmt(first)}`);
console.log(`warm pass:  ${fmt(warm)}`);
console.log(`throughput, 64 in flight: ${rate.toFixed(0)} names/s`);
console.log(`JVM RSS: ${rss.toFixed(0)} MB`);
await opsin.close();
rmSync(cache, { recursive: true, force: true });
