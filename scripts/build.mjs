// Builds what production runs (docs/operations.md, "The build"): each process entry and the
// chemistry threads' module, bundled by esbuild into dist/ as plain JavaScript (ESM, Node 20,
// packages external, source maps beside them). Data files stay in the repository: every source
// file's import.meta.url is rewritten to its own place relative to the bundle (scripts/own-urls.mjs).
//
//   node scripts/build.mjs              build (`npm run build`; `npm install` and `npm ci` run it as `prepare`)
//   node scripts/build.mjs --if-stale   build only when dist/ is missing or older than its sources
//   node scripts/build.mjs --check      exit 1, saying why, when dist/ is missing or stale
//   --out DIR                           another folder than dist/ (tests; inside the project, where
//                                       node_modules is found: packages are not bundled)
//
// dist/ is written under a temporary name and renamed into place, so a half-built one is never
// run. dist/stamp.json records the build's inputs (every source file esbuild read, from its
// metafile, plus the lockfile, tsconfig.json and these scripts) and a hash of their contents;
// dist/ is stale when any of them changed or is gone (a file that nothing imports cannot change
// a bundle, and one that starts to be imported changes its importer). Checking costs ~10 ms.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownUrls } from './own-urls.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');

/** dist/<name>.mjs: each process's entry (package.json's scripts run them through scripts/start.mjs). */
export const ENTRIES = {
  server: 'api/server.ts',
  worker: 'workers/main.ts',
  'mcp-stdio': 'api/mcp/stdio.ts',
  token: 'api/catalog/cli/token.ts',
  'catalog-import': 'api/catalog/import/cli.ts',
  dump: 'api/catalog/dumps/cli.ts',
};
/** The threads' module: dist/thread-<hash>.mjs, found by shared/threads/bundle.ts in the bundles. */
const THREAD_ENTRY = 'shared/threads/thread.ts';
/** Read by every build without being a bundle's input. */
const ALWAYS = ['package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'scripts/own-urls.mjs'];
/** Threads' modules of earlier builds kept in dist/, so that a process started before a rebuild can still replace a thread. */
const KEEP_THREADS = 4;

const posix = (p) => p.split(sep).join('/');

/** Hash of the files' contents (paths relative to the root); null when one is gone. */
function fingerprint(files) {
  const h = createHash('sha256');
  for (const f of files) {
    let text;
    try {
      text = readFileSync(join(ROOT, f));
    } catch {
      return null;
    }
    h.update(f).update('\0').update(text).update('\0');
  }
  return h.digest('hex');
}

/** Why `out` cannot be run as it is (missing, or built from other sources), or null when it is up to date. */
export function staleness(out = DIST) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(out, 'stamp.json'), 'utf8'));
  } catch {
    return `no build in ${posix(relative(ROOT, out)) || out}`;
  }
  for (const f of [...Object.keys(ENTRIES).map((n) => `${n}.mjs`), stamp.thread]) {
    if (!f || !existsSync(join(out, f))) return `${f ?? 'the threads\' module'} missing`;
  }
  const now = fingerprint(stamp.inputs ?? []);
  if (now === null) return 'a source file was removed';
  return now === stamp.hash ? null : 'sources changed since the last build';
}

/** Builds into `out` (by a temporary sibling renamed into place); returns what it wrote. */
export async function build(out = DIST) {
  const { build: esbuild } = await import('esbuild');
  // Node runs modules from their real path; the URLs written into the bundles are relative to it.
  out = join(realpathSync(dirname(out)), basename(out));
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'warning',
    // Written for the bundles' final folder: the temporary one is at the same depth.
    plugins: [ownUrls({ outDir: out })],
  };
  try {
    // The threads' module first, named by a hash of its contents: a process still running the
    // previous build's code replaces a thread with that build's module, never with a newer one.
    const threads = await esbuild({ ...common, entryPoints: { thread: join(ROOT, THREAD_ENTRY) }, outdir: tmp, entryNames: '[name]-[hash]' });
    const thread = Object.keys(threads.metafile.outputs).map((o) => o.split('/').at(-1)).find((o) => o.endsWith('.mjs'));
    // shared/threads/bundle.ts finds it relative to its own source (its import.meta.url, rewritten).
    const fromBundleTs = posix(relative(join(ROOT, 'shared/threads'), join(out, thread)));
    const processes = await esbuild({
      ...common,
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, src]) => [name, join(ROOT, src)])),
      outdir: tmp,
      define: { __NATPROD_DIST_THREAD__: JSON.stringify(fromBundleTs) },
    });
    const inputs = [
      ...new Set([...Object.keys(threads.metafile.inputs), ...Object.keys(processes.metafile.inputs)].map((p) => posix(relative(ROOT, resolve(ROOT, p))))),
    ]
      .filter((p) => !p.startsWith('node_modules/'))
      .sort()
      .concat(ALWAYS);
    // Earlier builds' threads' modules, the most recent first.
    if (existsSync(out)) {
      const older = readdirSync(out)
        .filter((n) => /^thread-[A-Z0-9]+\.mjs$/i.test(n) && n !== thread)
        .map((n) => ({ n, t: statSync(join(out, n)).mtimeMs }))
        .sort((a, b) => b.t - a.t)
        .slice(0, KEEP_THREADS - 1);
      for (const { n } of older) {
        for (const f of [n, `${n}.map`]) if (existsSync(join(out, f))) copyFileSync(join(out, f), join(tmp, f));
      }
    }
    const stamp = { hash: fingerprint(inputs), thread, entries: ENTRIES, inputs };
    writeFileSync(join(tmp, 'stamp.json'), `${JSON.stringify(stamp, null, 1)}\n`);
    // Into place: the old folder aside, the new one in, the old one removed.
    const old = `${out}.old-${process.pid}`;
    try {
      renameSync(out, old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      renameSync(tmp, out);
    } catch (err) {
      // Another process built the same sources at the same moment and was first: use its build.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    }
    rmSync(old, { recursive: true, force: true });
    return { out, thread, inputs: inputs.length };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Builds when `out` is stale; says so on stderr (stdout may be a protocol: MCP over stdio). */
export async function ensureBuilt(out = DIST) {
  const why = staleness(out);
  if (!why) return false;
  const t0 = performance.now();
  await build(out);
  process.stderr.write(`natprod: built ${posix(relative(ROOT, out)) || out}/ (${why}) in ${Math.round(performance.now() - t0)} ms\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = at >= 0 ? resolve(args[at + 1]) : DIST;
  if (args.includes('--check')) {
    const why = staleness(out);
    process.stdout.write(`${why ?? 'up to date'}\n`);
    process.exit(why ? 1 : 0);
  } else if (args.includes('--if-stale')) {
    await ensureBuilt(out);
  } else {
    const t0 = performance.now();
    const r = await build(out);
    process.stdout.write(`built ${posix(relative(ROOT, r.out)) || r.out}/ (${Object.keys(ENTRIES).length} processes + ${r.thread}, ${r.inputs} inputs) in ${Math.round(performance.now() - t0)} ms\n`);
  }
}
