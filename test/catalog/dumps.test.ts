/**
 * Dated full dumps: the atomic writer (an interrupted write leaves nothing under the final name),
 * range parsing, and a dump of 30 molecules made over REST (`POST /api/dumps`, admins) with the
 * 3D SDF: the manifest's sizes and SHA-256 equal the files' (node:crypto here), the CSV lite is
 * byte for byte the export route's CSV of the same columns, SDF records parse back with their
 * SD tags, RDKit's atom counts and (3D) non-zero z coordinates, provenance columns name the
 * linked organisms, DOIs and collections; downloads with ranges (206, 416), If-Range, path
 * traversal refused; a dump interrupted between pages leaves no directory or file; `list_dumps`.
 * Each file's `.gz` beside it: it decodes to exactly the plain file, its size and SHA-256 are in
 * the manifest, it downloads by its own name, and a client accepting gzip gets the plain name's
 * whole file from it (`Content-Encoding: gzip`), a range still from the plain file.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseRange } from '../../api/catalog/dumps/range.ts';
import { AtomicFile, writeAtomic } from '../../api/catalog/dumps/writer.ts';
import { FULL_FIELDS, LITE_FIELDS, SDF_FIELDS, today, writeDump, type DumpManifest } from '../../api/catalog/dumps/dump.ts';
import { dumpDir } from '../../api/catalog/dumps/routes.ts';
import { parseDumpArgs } from '../../api/catalog/dumps/cli.ts';
import { callListDumps } from '../../api/mcp/dumps-tool.ts';
import { PROVENANCE_FIELDS } from '../../api/catalog/export/format.ts';
import { runnerMolblocks, runnerMolblocks3D } from '../../api/catalog/export/routes.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { build } from '../helpers/app.ts';
import { csvRecords, MOLECULES, molblockAtoms, parseSdf, seed, tokenFor } from '../search/export-helpers.ts';

const rdkit = await loadRDKit();
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

t.test('parseRange', async (t) => {
  t.same(parseRange(undefined, 1000), { kind: 'whole' });
  t.same(parseRange('bytes=0-99', 1000), { kind: 'partial', start: 0, end: 99 });
  t.same(parseRange('bytes=-50', 1000), { kind: 'partial', start: 950, end: 999 });
  t.same(parseRange('bytes=100-', 1000), { kind: 'partial', start: 100, end: 999 });
  t.same(parseRange('bytes=900-5000', 1000), { kind: 'partial', start: 900, end: 999 }, 'end cut to the file');
  t.same(parseRange('bytes=-5000', 1000), { kind: 'partial', start: 0, end: 999 }, 'suffix longer than the file');
  t.same(parseRange('items=0-1', 1000), { kind: 'whole' }, 'another unit is ignored');
  t.same(parseRange('bytes=0-1,5-6', 1000), { kind: 'whole' }, 'several ranges: the whole file');
  for (const bad of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0', 'bytes=abc', 'bytes=5-2', 'bytes=-', 'bytes=', 'nonsense']) {
    t.match(parseRange(bad, 1000), { kind: 'unsatisfiable', reason: /range|Range/ }, bad);
  }
  t.match(parseRange('bytes=0-0', 0), { kind: 'unsatisfiable' }, 'an empty file has no range');
});

t.test('atomic writer: a failed or interrupted write leaves nothing under the final name', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-atomic-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const final = join(dir, 'out.csv');
  async function* failing() {
    yield 'a,b\r\n';
    yield '1,2\r\n';
    throw new Error('source broke');
  }
  await t.rejects(writeAtomic(final, failing()), /source broke/);
  t.same(await readdir(dir), [], 'no final file and no temporary file');

  const ac = new AbortController();
  async function* aborting() {
    yield 'first\n';
    ac.abort();
    yield 'second\n';
  }
  await t.rejects(writeAtomic(final, aborting(), ac.signal), /interrupted/);
  t.same(await readdir(dir), [], 'aborted: nothing left');

  // While being written, the content is only under a temporary name.
  const f = await AtomicFile.create(final);
  await f.write('partial');
  t.notOk(existsSync(final), 'not under the final name before commit');
  t.ok(existsSync(f.tempPath));
  await f.abort();
  t.same(await readdir(dir), []);

  const ok = await writeAtomic(final, ['hello ', Buffer.from('world')]);
  t.same(ok, { size: 11, sha256: sha256('hello world') });
  t.equal(await readFile(final, 'utf8'), 'hello world');
  t.same(await readdir(dir), ['out.csv'], 'no temporary file left after commit');

  // With its .gz sibling: both or (aborted) neither, the .gz decoding to the plain bytes.
  const zipped = join(dir, 'z.sdf');
  const aborted = await AtomicFile.create(zipped, { gzip: true });
  await aborted.write('partial\n'.repeat(1000));
  await aborted.abort();
  t.same((await readdir(dir)).sort(), ['out.csv'], 'aborted with its .gz: nothing left');
  const g = await AtomicFile.create(zipped, { gzip: true });
  const text = Array.from({ length: 5000 }, (_, i) => `record ${i}\n$$$$\n`);
  for (let i = 0; i < text.length; i += 500) await g.write(text.slice(i, i + 500).join(''));
  const done = await g.commit();
  const gzBytes = await readFile(`${zipped}.gz`);
  t.same(gunzipSync(gzBytes), await readFile(zipped), '.gz decodes to the plain file');
  t.same(done, { size: Buffer.byteLength(text.join('')), sha256: sha256(text.join('')), gz: { size: gzBytes.length, sha256: sha256(gzBytes) } });
  t.same((await readdir(dir)).sort(), ['out.csv', 'z.sdf', 'z.sdf.gz'], 'no temporary file left');
});

t.test('command line', async (t) => {
  t.same(parseDumpArgs([]), { force: false });
  t.same(parseDumpArgs(['--3d', '--force', '--date=2026-01-31', '--dir=/tmp/x']), { with3d: true, force: true, date: '2026-01-31', dir: '/tmp/x' });
  t.same(parseDumpArgs(['--no-3d']), { force: false, with3d: false });
  t.match(parseDumpArgs(['--date=2026-13-01']), /invalid --date "2026-13-01"/);
  t.match(parseDumpArgs(['--date=../../etc']), /invalid --date/);
  t.match(parseDumpArgs(['--bogus']), /unknown argument "--bogus"/);
});

t.test('dumps over REST (inline runner)', async (t) => {
  const ctx = await build(t, 'inline', { WORKERS: '2', JOB_TIMEOUT_MS: '300000' });
  if (!ctx) throw new Error('the inline app always builds');
  const { app, services, config } = ctx;
  const { auth, ids } = await seed(app, services);
  const reader = await tokenFor(services, 'reader@example.org', 'reader');
  const dir = dumpDir(config);
  t.equal(dir, join(config.DATA_DIR, 'dumps'), 'default: DATA_DIR/dumps');

  // Provenance for two molecules, written straight into the store.
  const store = services.store;
  const o1 = await store.insert('organisms', { name: 'Psilocybe cubensis', ncbi_id: '181762' } as never);
  const o2 = await store.insert('organisms', { name: 'Homo sapiens' } as never);
  const c1 = await store.insert('citations', { doi: '10.1000/xyz123', title: 'A' } as never);
  const k1 = await store.insert('collections', { title: 'Test, collection' } as never);
  await store.update('molecules', ids[0], { organism_ids: [o1.id, o2.id], citation_ids: [c1.id], collection_ids: [k1.id] });

  t.equal((await app.inject({ method: 'POST', url: '/api/dumps', payload: {} })).statusCode, 401, 'no token: 401');
  t.equal((await app.inject({ method: 'POST', url: '/api/dumps', headers: reader, payload: {} })).statusCode, 403, 'a reader: 403');
  const badBody = await app.inject({ method: 'POST', url: '/api/dumps', headers: auth, payload: { sdf3d: 'yes', extra: 1 } });
  t.equal(badBody.statusCode, 422);
  t.match(badBody.json(), { errors: { sdf3d: [/true or false/], extra: [/prohibited/] } });
  const empty = await app.inject({ method: 'GET', url: '/api/dumps' });
  t.equal(empty.statusCode, 200, 'the list is public');
  t.same(empty.json(), { data: [] });

  const started = await app.inject({ method: 'POST', url: '/api/dumps', headers: auth, payload: { sdf3d: false } });
  t.equal(started.statusCode, 202);
  const jobPath = new URL(started.json().status_url as string).pathname;
  let job: { status: string; progress: { rows: number; total: number }; error?: string; manifest_url?: string } | undefined;
  for (let i = 0; i < 900; i++) {
    job = (await app.inject({ method: 'GET', url: jobPath, headers: auth })).json();
    if (job!.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  t.equal(job?.status, 'succeeded', job?.error ?? 'dump job done');
  t.same(job?.progress, { rows: MOLECULES.length, total: MOLECULES.length });
  t.equal((await app.inject({ method: 'GET', url: jobPath, headers: reader })).statusCode, 403, 'job status: admins only');

  const again = await app.inject({ method: 'POST', url: '/api/dumps', headers: auth, payload: {} });
  t.equal(again.statusCode, 409, 'a dump of today exists');
  t.match(again.json().message, /force/);

  const list = (await app.inject({ method: 'GET', url: '/api/dumps' })).json() as { data: (Omit<DumpManifest, 'files'> & { manifest_url: string; files: (DumpManifest['files'][number] & { url: string; gz?: { name: string; size: number; sha256: string; url: string } })[] })[] };
  t.equal(list.data.length, 1);
  const m = list.data[0];
  t.equal(m.date, today());
  t.equal(m.molecules, MOLECULES.length);
  t.equal(m.software.version, config.RELEASE_VERSION);
  t.same(m.files.map((f) => f.kind), ['sdf-2d', 'csv-lite', 'csv-full'], 'without 3D: three files');

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: new URL(url, 'http://x').pathname, headers });
  const bodies = new Map<string, Buffer>();
  for (const f of m.files) {
    const res = await get(f.url);
    t.equal(res.statusCode, 200, `${f.name}: 200`);
    const body = res.rawPayload;
    bodies.set(f.kind, body);
    t.equal(Number(res.headers['content-length']), body.length, `${f.name}: Content-Length`);
    t.equal(body.length, f.size, `${f.name}: size in the manifest`);
    t.equal(sha256(body), f.sha256, `${f.name}: SHA-256 in the manifest`);
    t.equal(res.headers['accept-ranges'], 'bytes');
    t.equal(res.headers.etag, `"${f.sha256}"`);
  }
  const onDisk = JSON.parse(await readFile(join(dir, m.date, 'manifest.json'), 'utf8')) as DumpManifest;
  t.same((await get(m.manifest_url)).json(), onDisk, 'manifest.json served');
  for (const f of onDisk.files) t.equal(sha256(await readFile(join(dir, m.date, f.name))), f.sha256, `${f.name}: on disk`);

  // Each file's .gz: the same bytes, its size and SHA-256 in the manifest, by its own name or as
  // the plain name's encoding for a client that accepts gzip (never for a range).
  for (const f of m.files) {
    t.equal(f.gz?.name, `${f.name}.gz`, `${f.name}: its .gz in the manifest`);
    const gz = await get(f.gz!.url);
    t.equal(gz.statusCode, 200);
    t.equal(gz.headers['content-type'], 'application/gzip');
    t.equal(gz.headers['content-encoding'], undefined, `${f.gz!.name}: a file, not an encoding`);
    t.equal(gz.rawPayload.length, f.gz!.size, `${f.gz!.name}: size in the manifest`);
    t.equal(sha256(gz.rawPayload), f.gz!.sha256, `${f.gz!.name}: SHA-256 in the manifest`);
    t.same(gunzipSync(gz.rawPayload), bodies.get(f.kind), `${f.gz!.name}: decodes to exactly ${f.name}`);
    t.ok(f.gz!.size < f.size / 2, `${f.name}: ${f.size} → ${f.gz!.size} bytes`);
    const encoded = await get(f.url, { 'accept-encoding': 'gzip, deflate, br' });
    t.equal(encoded.headers['content-encoding'], 'gzip', `${f.name} to a client accepting gzip: from the .gz`);
    t.equal(encoded.headers['content-length'], String(f.gz!.size));
    t.equal(encoded.headers.etag, `"${f.sha256}-gzip"`);
    t.match(encoded.headers.vary, /Accept-Encoding/);
    t.same(encoded.rawPayload, gz.rawPayload);
    const ranged = await get(f.url, { 'accept-encoding': 'gzip', range: 'bytes=0-99' });
    t.equal(ranged.statusCode, 206);
    t.equal(ranged.headers['content-encoding'], undefined, `${f.name}: a range is of the plain file`);
    t.same(ranged.rawPayload, bodies.get(f.kind)!.subarray(0, 100));
  }
  const brOnly = await get(m.files[0].url, { 'accept-encoding': 'br' });
  t.equal(brOnly.headers['content-encoding'], 'br', 'a client taking br only: compressed as it streams');
  t.same(brotliDecompressSync(brOnly.rawPayload), bodies.get(m.files[0].kind));
  t.same((await readdir(dir)).filter((n) => n.startsWith('.')), [], 'no staging directory left');

  // CSV lite = the export route's CSV of the same columns, byte for byte.
  const exported = await app.inject({ method: 'POST', url: '/api/molecules/export', headers: auth, payload: { format: 'csv', fields: LITE_FIELDS } });
  t.equal(bodies.get('csv-lite')!.toString('utf8'), exported.body, 'CSV lite equals the export');

  const full = csvRecords(bodies.get('csv-full')!.toString('utf8'));
  t.equal(full.length, MOLECULES.length);
  t.same(Object.keys(full[0]), FULL_FIELDS);
  const first = full.find((r) => Number(r.id) === ids[0])!;
  t.same([first.organisms, first.organism_ncbi_ids, first.citation_dois, first.collections], ['Psilocybe cubensis|Homo sapiens', '181762|', '10.1000/xyz123', 'Test, collection']);
  t.ok(full.filter((r) => Number(r.id) !== ids[0]).every((r) => PROVENANCE_FIELDS.every((f) => r[f] === '')), 'unlinked molecules: empty provenance');

  const sdf2d = parseSdf(bodies.get('sdf-2d')!.toString('utf8'));
  t.equal(sdf2d.length, MOLECULES.length);
  for (const r of sdf2d) {
    t.same(Object.keys(r.data), SDF_FIELDS, `${r.title}: SD tags`);
    const mol = rdkit.get_mol(r.data.canonical_smiles)!;
    try {
      t.equal(molblockAtoms(r.molblock), mol.get_num_atoms(true), `${r.title}: atoms`);
    } finally {
      mol.delete();
    }
  }
  t.equal(sdf2d.find((r) => Number(r.data.id) === ids[0])!.data.organisms, 'Psilocybe cubensis|Homo sapiens');
  // Ranges.
  const lite = m.files.find((f) => f.kind === 'csv-lite')!;
  const whole = bodies.get('csv-lite')!;
  const r1 = await get(lite.url, { range: 'bytes=0-99' });
  t.equal(r1.statusCode, 206);
  t.equal(r1.headers['content-range'], `bytes 0-99/${whole.length}`);
  t.equal(r1.headers['content-length'], '100');
  t.same(r1.rawPayload, whole.subarray(0, 100));
  const r2 = await get(lite.url, { range: 'bytes=-50' });
  t.equal(r2.statusCode, 206);
  t.equal(r2.headers['content-range'], `bytes ${whole.length - 50}-${whole.length - 1}/${whole.length}`);
  t.same(r2.rawPayload, whole.subarray(whole.length - 50));
  const r3 = await get(lite.url, { range: 'bytes=100-' });
  t.equal(r3.statusCode, 206);
  t.same(r3.rawPayload, whole.subarray(100));
  for (const bad of [`bytes=${whole.length}-`, 'bytes=abc', 'bytes=9-3']) {
    const r = await get(lite.url, { range: bad });
    t.equal(r.statusCode, 416, `${bad}: 416`);
    t.equal(r.headers['content-range'], `bytes */${whole.length}`);
    t.match(r.json(), { message: /range/ });
  }
  const stale = await get(lite.url, { range: 'bytes=0-9', 'if-range': '"something-else"' });
  t.equal(stale.statusCode, 200, 'If-Range of another version: the whole file');
  const fresh = await get(lite.url, { range: 'bytes=0-9', 'if-range': `"${lite.sha256}"` });
  t.equal(fresh.statusCode, 206, 'If-Range of this version: the range');
  const head = await app.inject({ method: 'HEAD', url: new URL(lite.url).pathname });
  t.equal(head.statusCode, 200);
  t.equal(head.headers['content-length'], String(whole.length));

  // Path traversal and bad names.
  await writeFile(join(config.DATA_DIR, 'secret.txt'), 'TOP SECRET');
  await writeFile(join(dir, m.date, 'extra.txt'), 'not in the manifest');
  const attempts = [
    `/api/dumps/${m.date}/..%2F..%2Fsecret.txt`,
    `/api/dumps/${m.date}/..%2Fsecret.txt`,
    `/api/dumps/${m.date}/extra.txt`,
    `/api/dumps/${m.date}/.%2Fmolecules-2d.sdf`,
    `/api/dumps/..%2F${m.date}/manifest.json`,
    `/api/dumps/..%2F..%2F/secret.txt`,
    `/api/dumps/${m.date}%2F..%2F../secret.txt`,
    '/api/dumps/..%2F..%2Fsecret.txt/x',
    '/api/dumps/../../secret.txt',
    `/api/dumps/${m.date}/%2e%2e%2f%2e%2e%2fsecret.txt`,
  ];
  for (const url of attempts) {
    const r = await app.inject({ method: 'GET', url });
    t.ok([400, 404].includes(r.statusCode), `${url}: ${r.statusCode}`);
    t.notMatch(r.body, /TOP SECRET|not in the manifest/, `${url}: nothing leaked`);
  }
  const badDate = await app.inject({ method: 'GET', url: '/api/dumps/2026-1-1/manifest.json' });
  t.equal(badDate.statusCode, 400);
  t.match(badDate.json().message, /"2026-1-1".*YYYY-MM-DD/);
  const noDump = await app.inject({ method: 'GET', url: '/api/dumps/1999-01-01/manifest.json' });
  t.equal(noDump.statusCode, 404);
  const noFile = await app.inject({ method: 'GET', url: `/api/dumps/${m.date}/molecules.xls` });
  t.equal(noFile.statusCode, 404);
  t.match(noFile.json().message, /molecules\.xls.*molecules-2d\.sdf/);

  // MCP list_dumps: the same list, with download URLs.
  const tool = await callListDumps(dir, 'http://example.org', {});
  const listed = JSON.parse((tool.content[0] as { text: string }).text) as { data: { date: string; files: { url: string; sha256: string }[] }[] };
  t.same(listed.data.map((d) => d.date), [m.date]);
  t.same(listed.data[0].files.map((f) => f.url), m.files.map((f) => `http://example.org/api/dumps/${m.date}/${f.name}`));
  t.same(listed.data[0].files.map((f) => f.sha256), m.files.map((f) => f.sha256));
  const bad = await callListDumps(dir, 'http://example.org', { everything: true, latest: 'yes' });
  t.ok(bad.isError, 'unknown argument: an error');
  t.match((bad.content[0] as { text: string }).text, /^Error calling list_dumps\. Status code: 422\. Response: .*"everything":\["The everything field is prohibited.*"latest":\["The latest field must be true or false\."\]/, 'a 422 naming each field, as every catalog tool answers');

  // Written directly: an existing date is refused without force; an interruption leaves nothing.
  const base = { store, molblocks: runnerMolblocks(services.runner), dir, version: 'test', with3d: false };
  await t.rejects(writeDump({ ...base, date: m.date }), { name: 'DumpExistsError', message: /exists already/ });
  const ac = new AbortController();
  await t.rejects(
    writeDump({ ...base, date: '2001-02-03', pageSize: 7, signal: ac.signal, onProgress: (rows) => rows >= 7 && ac.abort() }),
    /interrupted/,
  );
  t.notOk(existsSync(join(dir, '2001-02-03')), 'interrupted: no dump directory');
  t.same((await readdir(dir)).sort(), [m.date], 'interrupted: no staging directory or temporary file left');
  const replaced = await writeDump({ ...base, date: m.date, force: true, pageSize: 7 });
  t.same(replaced.files.map((f) => f.kind), ['sdf-2d', 'csv-lite', 'csv-full']);
  t.equal((await readdir(join(dir, m.date))).length, 7, 'the replaced dump holds only its own files and their .gz (extra.txt is gone)');
  t.same(bodies.get('csv-lite')!.toString('utf8'), await readFile(join(dir, m.date, 'molecules-lite.csv'), 'utf8'), 'paging does not change the file');
  await mkdir(join(dir, 'not-a-dump'), { recursive: true });
  t.equal((await app.inject({ method: 'GET', url: '/api/dumps' })).json().data.length, 1, 'only directories with a manifest are listed');

  // The 3D SDF, on a store of its own with small molecules (embedding large ones takes seconds):
  // one without a structure and one over the 3D size limit are left out and counted.
  const small = await openStore({ dataDir: await mkdtemp(join(tmpdir(), 'natprod-dump3d-')) });
  t.teardown(() => small.close());
  const smiles = ['CCO', 'OC(=O)c1ccccc1O', 'C[C@H](N)C(=O)O', 'C/C=C/C(=O)O', '', 'C'.repeat(120)];
  await small.insertMany('molecules', smiles.map((s, i) => ({ identifier: `T${i}`, name: `m${i}`, canonical_smiles: s, status: 'APPROVED' }) as never));
  const with3d = await writeDump({ store: small, molblocks: runnerMolblocks(services.runner), molblocks3d: runnerMolblocks3D(services.runner), dir: join(dir, 'small'), date: '2002-03-04', version: 'test', with3d: true });
  t.same(with3d.files.map((f) => f.kind), ['sdf-2d', 'sdf-3d', 'csv-lite', 'csv-full']);
  const f3d = with3d.files.find((f) => f.kind === 'sdf-3d')!;
  const body3d = await readFile(join(dir, 'small', '2002-03-04', f3d.name));
  t.equal(sha256(body3d), f3d.sha256, '3D file: SHA-256 in the manifest');
  t.equal(body3d.length, f3d.size);
  const gz3d = await readFile(join(dir, 'small', '2002-03-04', f3d.gz!.name));
  t.equal(sha256(gz3d), f3d.gz!.sha256, '3D .gz: SHA-256 in the manifest');
  t.same(gunzipSync(gz3d), body3d, '3D .gz: decodes to the 3D file');
  const sdf3d = parseSdf(body3d.toString('utf8'));
  t.equal(f3d.records, 4);
  t.equal(f3d.skipped, 2, 'no structure, and over the size limit: skipped');
  const idsBySmiles = new Map((await small.find('molecules', {})).map((d) => [d.canonical_smiles, d.id]));
  t.same(f3d.skipped_ids, [idsBySmiles.get(''), idsBySmiles.get('C'.repeat(120))]);
  t.same(sdf3d.map((r) => r.title), ['T0', 'T1', 'T2', 'T3']);
  for (const r of sdf3d) {
    const n = molblockAtoms(r.molblock);
    const z = r.molblock.split('\n').slice(4, 4 + n).map((l) => Number.parseFloat(l.slice(20, 30)));
    t.ok(z.some((v) => Math.abs(v) > 0.01), `${r.title}: non-zero z`);
    t.same(Object.keys(r.data), SDF_FIELDS, `${r.title}: SD tags`);
    const back = rdkit.get_mol(r.molblock);
    const want = rdkit.get_mol(r.data.canonical_smiles);
    try {
      t.equal(n, want!.get_num_atoms(true), `${r.title}: heavy atoms`);
      t.equal(back!.get_smiles(), want!.get_smiles(), `${r.title}: the same structure, stereo included`);
    } finally {
      back?.delete();
      want?.delete();
    }
  }
  t.equal(parseSdf((await readFile(join(dir, 'small', '2002-03-04', 'molecules-2d.sdf'))).toString('utf8')).length, 6, '2D: every molecule, an empty molblock where there is no structure');
});
