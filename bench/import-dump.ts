/**
 * How long a catalog dump takes to become searchable: natprod's full dump (`molecules-full.csv`,
 * `npm run dump`) imported by the command line into an empty embedded store, its rows loaded as
 * the file carries them (api/catalog/import/carried.ts: one in IMPORT_SAMPLE_EVERY derived again to
 * check it, fingerprints computed), then the api started on that store and waited for until the
 * structure-search index is ready. Prints the import's rows/s and its summary's counts, the api's
 * ready time and RSS, and the sum: the time from an empty catalog to a searchable one.
 *
 *   DATA_DIR=bench/data/search-store DUMP_DIR=/tmp/dump npm run dump      # once: the dump of a built catalog
 *   node --import tsx bench/import-dump.ts /tmp/dump/<date>/molecules-full.csv [--threads 2] [--sample-every 100] [--keep DIR]
 *
 * `--sample-every 1` derives every row (the import as it was before rows carried their
 * derivation). The store goes to a temporary folder, removed at the end unless `--keep DIR`
 * names where to put it. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { NatprodApi } from './cartridge/natprod.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { threads: { type: 'string', default: '2' }, 'sample-every': { type: 'string', default: '100' }, keep: { type: 'string' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: node --import tsx bench/import-dump.ts <molecules-full.csv[.gz]> [--threads N] [--sample-every N] [--keep DIR]');
  process.exit(2);
}
const dataDir = values.keep ? resolve(values.keep) : await mkdtemp(join(tmpdir(), 'natprod-import-dump-'));
const env = { ...process.env, DATA_DIR: dataDir, WORKERS: values.threads, IMPORT_SAMPLE_EVERY: values['sample-every'], SEED_DEMO: 'false', LOG_LEVEL: 'warn' };

console.log(`import of ${file} into ${dataDir}: ${values.threads} threads, one row in ${values['sample-every']} derived again`);
const t0 = performance.now();
const summary = await new Promise<Record<string, unknown>>((ok, fail) => {
  const child = spawn(process.execPath, ['scripts/start.mjs', 'catalog-import', resolve(file)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.on('exit', (code) => (code === 0 ? ok(JSON.parse(out.slice(out.indexOf('{')))) : fail(new Error(`catalog-import exited ${code}: ${out}`))));
});
const importS = (performance.now() - t0) / 1000;
const rows = summary.rows as number;
console.log(
  `import: ${rows} rows in ${importS.toFixed(1)} s (${(rows / importS).toFixed(0)} rows/s); created ${JSON.stringify(summary.created)}; ` +
    `carried ${summary.carried ?? 0}, sampled ${summary.sampled ?? 0}, rejected ${summary.rejected_count}, warnings ${summary.warnings_count}`,
);
const api = await NatprodApi.start(dataDir, Number(values.threads));
const index = await api.index();
const rss = api.rss();
await api.stop();
console.log(`api: search ready ${(api.readyMs / 1000).toFixed(1)} s after start (index build ${((index.build_ms ?? NaN) / 1000).toFixed(1)} s, ${index.molecules} molecules), RSS ${((rss ?? NaN) / 1048576).toFixed(0)} MB`);
console.log(`searchable ${((importS * 1000 + api.readyMs) / 60000).toFixed(1)} min after the import started`);
if (!values.keep) await rm(dataDir, { recursive: true, force: true });
