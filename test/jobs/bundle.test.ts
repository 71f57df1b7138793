/**
 * The chemistry threads' bundle (shared/threads/bundle.ts): built once, each source file keeps its own
 * import.meta.url (data files are found), the pool's threads run it without the TypeScript
 * loader, and a failed build falls back to the sources through tsx. And the production build
 * (scripts/build.mjs, dist/): every process bundled with its threads' module, data files found
 * relative to the bundles, staleness told from the sources, the server run by plain Node.
 */
import t from 'tap';
import { once } from 'node:events';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, realpath, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromDist, SOURCE_ENTRY, threadExecArgv, threadModule } from '../../shared/threads/bundle.ts';
import { ChemPool } from '../../shared/threads/pool.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';

t.test('the bundle: one file in node_modules/.cache, every import.meta.url replaced by its file', async (t) => {
  const m = threadModule();
  t.ok(m.bundled, `bundled (${m.reason ?? ''})`);
  t.equal(threadModule(), m, 'built once per process');
  const file = fileURLToPath(m.url);
  t.match(file, /node_modules\/\.cache\/natprod\/thread-[0-9a-f]{16}\.mjs$/);
  const text = readFileSync(file, 'utf8');
  t.notMatch(text, /import\.meta\.url/, 'no import.meta.url left (it would name the bundle)');
  const urls = [...text.matchAll(/"(file:\/\/[^"]+\.ts)"/g)].map((x) => x[1]!);
  t.ok(urls.some((u) => u.endsWith('/shared/chem/core/tables.ts')), 'tables.ts names its own URL');
  for (const u of urls) t.ok(existsSync(fileURLToPath(u)), `${u.split('/').slice(-2).join('/')} exists`);
  t.notMatch(text, /from "(?:\.\.?\/)/, 'no relative import left outside the bundle');
  // Bundles of earlier sources are pruned to the 8 most recently used, this one included.
  const dir = dirname(file);
  for (let i = 0; i < 10; i++) {
    const old = join(dir, `thread-${String(i).padStart(16, 'e')}.mjs`);
    await writeFile(old, '');
    await utimes(old, new Date(Date.now() - (i + 1) * 60_000), new Date(Date.now() - (i + 1) * 60_000));
  }
  t.ok(threadModule(pathToFileURL(fileURLToPath(new URL('../../shared/threads/build-thread-bundle.mjs', import.meta.url)))).bundled);
  const left = readdirSync(dir).filter((n) => /^thread-[0-9a-f]{16}\.mjs$/.test(n));
  t.equal(left.length, 8, '8 bundles kept');
  t.ok(left.includes(file.split('/').at(-1)!), 'the one in use among them');
  t.notOk(left.includes(`thread-${'9'.padStart(16, 'e')}.mjs`), 'the least recently used gone');
  for (const n of left) if (n.startsWith('thread-eeee')) await rm(join(dir, n));
});

t.test("a bundled thread's options: the per-thread ones without tsx (a Worker refuses V8 and per-process options)", async (t) => {
  t.same(threadExecArgv(['--import', 'tsx', '--max-old-space-size=512']), []);
  t.same(threadExecArgv(['--import=tsx', '--enable-source-maps']), ['--enable-source-maps']);
  t.same(threadExecArgv(['--import=tsx/esm', '--import', 'other']), ['--import=other']);
  t.same(threadExecArgv(['--loader', 'tsx', '-r', './x.cjs']), ['--require=./x.cjs']);
  t.same(threadExecArgv(['--import', 'tsxx']), ['--import=tsxx']);
  t.same(threadExecArgv(['--trace-gc', '--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--title=x', '--expose-gc']), ['--cpu-prof', '--cpu-prof-dir=/tmp/p']);
  // What a Worker accepts is Node's to say: start one with each result.
  for (const argv of [['--trace-gc', '--max-old-space-size=512', '--import=tsx', '--enable-source-maps', '--no-warnings', '--title=natprod']]) {
    const w = new Worker('0', { eval: true, execArgv: threadExecArgv(argv) });
    await once(w, 'exit');
    t.pass(`a Worker starts with ${threadExecArgv(argv).join(' ')}`);
  }
});

t.test('a failed build falls back to the sources through tsx, naming the cause', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-bundle-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const broken = join(dir, 'broken.mjs');
  await writeFile(broken, "process.stderr.write('no esbuild here\\n'); process.exit(3);\n");
  const m = threadModule(pathToFileURL(broken));
  t.same(m, { url: SOURCE_ENTRY, bundled: false, reason: 'no esbuild here' });
});

t.test("the pool's threads run the bundle, without tsx, and find their data files", async (t) => {
  const pool = new ChemPool(1, threadConfig(loadConfig({} as NodeJS.ProcessEnv)));
  t.teardown(() => pool.destroy());
  // Descriptors read the NP-likeness, SA score and QED tables (shared/chem/core/tables.ts).
  const d = (await pool.run('generate_descriptors', { smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', format: 'json', toolkit: 'rdkit' }, { timeoutMs: 60_000 })) as Record<string, unknown>;
  t.equal(d.molecular_formula, 'C8H10N4O2', 'caffeine');
  t.equal(pool.code.url, threadModule().url, 'the threads load the bundle');
  t.notMatch((pool.execArgv ?? []).join(' '), /tsx/, 'and no TypeScript loader');
  t.match((pool.execArgv ?? []).join(' '), /--enable-source-maps/, "the process's other options are kept");
});

const BUILD = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A build of its own, inside the project (packages are external: found from node_modules above it). */
async function distDir(): Promise<string> {
  await mkdir(join(ROOT, 'node_modules/.cache/natprod'), { recursive: true });
  // Its real path: Node runs modules from there, and the build writes URLs relative to it.
  return realpath(await mkdtemp(join(ROOT, 'node_modules/.cache/natprod/dist-test-')));
}

t.test('dist: a built threads\' module is used as it is; a missing one is not', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-dist-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = pathToFileURL(join(dir, 'thread-ABCDEFGH.mjs'));
  t.equal(fromDist(file), undefined);
  await writeFile(file, 'export default () => 0;\n');
  t.same(fromDist(file), { url: file.href, bundled: true });
});

t.test('dist: built into a folder of its own, every process with its threads, data files found, staleness told', async (t) => {
  const parent = await distDir();
  t.teardown(() => rm(parent, { recursive: true, force: true }));
  const out = join(parent, 'dist');
  const check = () => spawnSync(process.execPath, [BUILD, '--check', '--out', out], { encoding: 'utf8' });
  t.equal(check().status, 1, 'stale before the build');
  t.match(check().stdout, /no build/);
  execFileSync(process.execPath, [BUILD, '--out', out], { encoding: 'utf8' });
  t.same(readdirSync(parent), ['dist'], 'the temporary folder renamed into place, nothing left beside it');
  const stamp = JSON.parse(await readFile(join(out, 'stamp.json'), 'utf8')) as { hash: string; thread: string; inputs: string[] };
  const names = readdirSync(out);
  for (const n of ['server', 'worker', 'mcp-stdio', 'token', 'catalog-import']) {
    t.ok(names.includes(`${n}.mjs`) && names.includes(`${n}.mjs.map`), `${n}.mjs and its source map`);
  }
  t.match(stamp.thread, /^thread-[A-Z0-9]+\.mjs$/);
  t.ok(names.includes(stamp.thread), "the threads' module");
  t.ok(stamp.inputs.includes('api/server.ts') && stamp.inputs.includes('shared/threads/thread.ts') && stamp.inputs.includes('package-lock.json'), "the stamp lists the build's inputs");
  t.notOk(stamp.inputs.some((p) => p.startsWith('node_modules/')), 'packages are not inputs (they stay external)');
  // import.meta.url: only in `new URL("<the source file, relative>", import.meta.url)`.
  for (const n of ['server.mjs', stamp.thread]) {
    const text = await readFile(join(out, n), 'utf8');
    const own = [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]!);
    t.equal(text.split('import.meta.url').length - 1, own.length, `${n}: every import.meta.url names its source file`);
    for (const rel of own) t.ok(existsSync(fileURLToPath(new URL(rel, pathToFileURL(join(out, n))))), `${n}: ${rel} exists`);
    t.notMatch(text, /from "(?:\.\.?\/)/, `${n}: no relative import left outside the bundle`);
  }
  // shared/threads/bundle.ts in the server's bundle: `new URL("<the threads' module>", <its own source URL>)`.
  const told = /new URL\("([^"]*thread-[A-Z0-9]+\.mjs)", new URL\("([^"]+)", import\.meta\.url\)\.href\)/.exec(await readFile(join(out, 'server.mjs'), 'utf8'));
  t.ok(told, "the server's pool is told where its threads' module is");
  if (told) t.equal(new URL(told[1]!, new URL(told[2]!, pathToFileURL(join(out, 'server.mjs')))).href, pathToFileURL(join(out, stamp.thread)).href);
  t.equal(check().status, 0, 'up to date after the build');
  await writeFile(join(out, 'stamp.json'), JSON.stringify({ ...stamp, hash: '0'.repeat(64) }));
  t.match(check().stdout, /sources changed/, 'stale when the sources differ from those it was built from');
  await writeFile(join(out, 'stamp.json'), JSON.stringify({ ...stamp, inputs: [...stamp.inputs, 'api/gone.ts'] }));
  t.match(check().stdout, /removed/, 'stale when an input is gone');
  await writeFile(join(out, 'stamp.json'), JSON.stringify(stamp));
  t.equal(check().status, 0);
  await unlink(join(out, 'worker.mjs'));
  t.match(check().stdout, /worker\.mjs missing/, 'stale when a bundle is missing');
  // Rebuilt: the previous threads' module is kept (a process started before may still need it).
  execFileSync(process.execPath, [BUILD, '--if-stale', '--out', out], { encoding: 'utf8', stdio: 'pipe' });
  t.equal(check().status, 0, 'rebuilt when stale');
  t.ok(existsSync(join(out, stamp.thread)));
});

t.test('dist: the server run by plain Node answers chemistry from its own threads\' module', async (t) => {
  const parent = await distDir();
  t.teardown(() => rm(parent, { recursive: true, force: true }));
  const out = join(parent, 'dist');
  execFileSync(process.execPath, [BUILD, '--out', out], { encoding: 'utf8' });
  const { thread } = JSON.parse(await readFile(join(out, 'stamp.json'), 'utf8')) as { thread: string };
  // A mark that only this module's threads leave.
  const mark = join(parent, 'thread-loaded');
  await appendFile(join(out, thread), "\nimport { writeFileSync as markLoaded } from 'node:fs';\nif (process.env.NATPROD_TEST_MARK) markLoaded(process.env.NATPROD_TEST_MARK, 'x');\n");
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', DATA_DIR: join(parent, 'data'), WORKERS: '1', NATPROD_TEST_MARK: mark };
  const child = spawn(process.execPath, [join(out, 'server.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let log = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${log}`)), 60_000);
    const onData = (b: Buffer) => {
      log += b.toString();
      const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
  });
  const res = await fetch(`http://127.0.0.1:${port}/latest/chem/descriptors?smiles=CN1C%3DNC2%3DC1C(%3DO)N(C(%3DO)N2C)C`);
  t.equal(res.status, 200);
  t.equal(((await res.json()) as Record<string, unknown>).molecular_formula, 'C8H10N4O2', 'caffeine (descriptors read the data tables)');
  t.ok(existsSync(mark), "the threads loaded dist's module");
  t.notMatch(log, /through tsx/, 'no fallback to the sources');
  child.kill('SIGTERM');
  await once(child, 'exit');
});
