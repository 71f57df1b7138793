/**
 * The chemistry threads' bundle (shared/threads/bundle.ts): built once, each source file keeps its own
 * import.meta.url (data files are found), the pool's threads run it without the TypeScript
 * loader, and a failed build falls back to the sources through tsx.
 */
import t from 'tap';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SOURCE_ENTRY, threadExecArgv, threadModule } from '../../shared/threads/bundle.ts';
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
