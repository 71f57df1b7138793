/**
 * Catalog imports as jobs (api/catalog/import/jobs.ts): `POST /api/imports` (upload or a file
 * under IMPORT_DIR), polling, cancelling, the 4xx of bad requests, in both runner modes (the
 * chunks derived on the api's pool, or by a BullMQ worker); the MCP tools import_molecules and
 * import_status on the same jobs. Expected counts come from the files themselves: 25 distinct
 * alcohols C1..C25 and one unreadable SMILES on row 26.
 */
import t from 'tap';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build, MODES } from '../helpers/app.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';
import { tokenFor } from '../search/export-helpers.ts';

const ALCOHOLS = ['smiles,name,organism', ...Array.from({ length: 25 }, (_, k) => `${'C'.repeat(k + 1)}O,alcohol ${k + 1},Saccharomyces cerevisiae`), 'C1CC(,broken,'].join('\n') + '\n';
const LOTUS = new URL('../../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url).pathname;

function upload(name: string, body: string | Buffer, fields: Record<string, string> = {}) {
  const boundary = `----natprod${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(body), Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const mode of MODES) {
  t.test(`imports as jobs over REST (${mode})`, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'natprod-import-dir-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const built = await build(t, mode, { IMPORT_UPLOAD_LIMIT: '200000', IMPORT_DIR: dir });
    if (!built) return skipAll(t, NO_REDIS);
    const { app, services } = built;
    const admin = await tokenFor(services, 'admin@example.org', 'admin');
    const reader = await tokenFor(services, 'reader@example.org', 'reader');
    const post = (headers: Record<string, string>, opts: { payload: Buffer | object; headers?: Record<string, string> }) =>
      app.inject({ method: 'POST', url: '/api/imports', headers: { ...headers, ...opts.headers }, payload: opts.payload });
    const poll = async (id: string) => {
      for (let i = 0; i < 600; i++) {
        const r = await app.inject({ url: `/api/imports/${id}`, headers: admin });
        const rec = r.json();
        if (!['queued', 'running'].includes(rec.status)) return rec;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`import ${id} did not end`);
    };

    t.equal((await post({}, upload('a.csv', ALCOHOLS))).statusCode, 401, 'no token: 401');
    t.equal((await post(reader, upload('a.csv', ALCOHOLS))).statusCode, 403, 'a reader: 403');

    const started = await post(admin, upload('alcohols.csv', ALCOHOLS, { status: 'DRAFT' }));
    t.equal(started.statusCode, 202, 'an upload: 202');
    const job = started.json();
    t.equal(started.headers.location, job.status_url, 'Location is the status URL');
    t.match(job, { status: /queued|running/, filename: 'alcohols.csv', source: 'upload', molecule_status: 'DRAFT' });
    const done = await poll(job.id);
    t.equal(done.status, 'succeeded', 'the job succeeds');
    t.match(done.summary, { rows: 26, created: { molecules: 25, organisms: 1, links: 25 }, rejected_count: 1, rejected: [{ row: 26, reason: /C1CC\(/ }] }, 'counts, and the bad row with its number and reason');
    t.equal(done.progress.fraction, 1, 'progress reaches the whole file');
    const drafts = await services.store.find('molecules', { status: 'DRAFT' }, { fields: ['name'] });
    t.equal(drafts.length, 25, 'the 25 molecules are in the store, with the status asked for');

    // The same rows by server path: matched, nothing created twice.
    await writeFile(join(dir, 'alcohols.csv'), ALCOHOLS);
    const again = await post(admin, { payload: { path: 'alcohols.csv' } });
    t.equal(again.statusCode, 202, 'a file under IMPORT_DIR: 202');
    const second = await poll(again.json().id);
    t.match(second, { status: 'succeeded', source: 'path', summary: { created: { molecules: 0 }, updated: { molecules: 25 } } }, 'the second import matches the first one\'s molecules');
    t.equal((await services.store.find('molecules', {}, { fields: ['id'] })).length, 25, 'still 25 molecules');

    const bad = async (opts: Parameters<typeof post>[1], status: number, what: string, message: RegExp) => {
      const r = await post(admin, opts);
      t.equal(r.statusCode, status, `${what}: ${status}`);
      t.match(JSON.stringify(r.json()), message, `${what}: the answer says why`);
    };
    await bad({ payload: { path: '../outside.csv' } }, 403, 'a path outside IMPORT_DIR', /outside IMPORT_DIR/);
    await bad({ payload: { path: 'missing.csv' } }, 404, 'a missing file', /No file/);
    await bad({ payload: {} }, 422, 'no path', /path field is required/);
    await bad({ payload: { path: 'alcohols.csv', bogus: 1 } }, 422, 'an unknown field', /bogus field is prohibited/);
    await bad({ payload: { path: 'alcohols.csv', status: 'LIVE' } }, 422, 'an unknown status', /status is invalid/);
    await bad(upload('notes.xyz', 'x'), 422, 'a file type no reader takes', /Unsupported import file type/);
    await bad(upload('empty.csv', ''), 422, 'an empty upload', /empty/);
    await bad(upload('big.csv', Buffer.alloc(200_001, 'C')), 413, 'an upload over IMPORT_UPLOAD_LIMIT', /IMPORT_UPLOAD_LIMIT/);

    // A larger file: a second import of it while the first runs is refused; the first is cancelled.
    await copyFile(LOTUS, join(dir, 'lotus.tsv.gz'));
    const big = await post(admin, { payload: { path: 'lotus.tsv.gz' } });
    t.equal(big.statusCode, 202);
    const twice = await post(admin, { payload: { path: 'lotus.tsv.gz' } });
    t.equal(twice.statusCode, 409, 'the same file again while it runs: 409');
    t.match(twice.json().message, big.json().id, 'naming the running job');
    const health = (await app.inject({ url: '/health' })).json();
    t.match(health.imports, { jobs: [{ id: big.json().id, filename: 'lotus.tsv.gz' }] }, '/health lists the import this api runs');
    const cancel = await app.inject({ method: 'DELETE', url: `/api/imports/${big.json().id}`, headers: admin });
    t.equal(cancel.statusCode, 200);
    t.equal(cancel.json().status, 'cancelled', 'cancelled');
    t.ok(cancel.json().summary.rows < 1000, `it stopped between rows (${cancel.json().summary.rows} of 1000 written)`);
    t.equal((await app.inject({ method: 'DELETE', url: `/api/imports/${big.json().id}`, headers: admin })).statusCode, 409, 'cancelling an ended job: 409');
    t.equal((await app.inject({ url: '/api/imports/00000000-0000-4000-8000-000000000000', headers: admin })).statusCode, 404, 'an unknown job: 404');
    const list = (await app.inject({ url: '/api/imports', headers: admin })).json();
    t.same(list.data.map((r: { status: string }) => r.status), ['cancelled', 'succeeded', 'succeeded'], 'the list, newest first');
  });
}

t.test('the MCP tools import_molecules and import_status', async (t) => {
  const built = await build(t, 'inline');
  const { app, services } = built!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const connect = async (token: Record<string, string>) => {
    const client = new Client({ name: 'natprod-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: token } }));
    t.teardown(() => client.close());
    return client;
  };
  const admin = await connect(await tokenFor(services, 'admin@example.org', 'admin'));
  const reader = await connect(await tokenFor(services, 'reader@example.org', 'reader'));
  type Res = { isError?: boolean; content: { type: string; text: string }[] };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Res;

  const names = (await admin.listTools()).tools.map((x) => x.name);
  t.ok(names.includes('import_molecules') && names.includes('import_status'), 'both tools are listed');
  const refused = await call(reader, 'import_molecules', { content: ALCOHOLS, filename: 'a.csv' });
  t.ok(refused.isError, 'a reader is refused');
  t.match(refused.content[0].text, /Status code: 403/);
  const both = await call(admin, 'import_molecules', { content: ALCOHOLS, path: 'a.csv', filename: 'a.csv' });
  t.match(both.content[0].text, /Status code: 422.*exactly one of path, content/, 'path and content together: 422');
  const started = await call(admin, 'import_molecules', { content: ALCOHOLS, filename: 'alcohols.csv' });
  t.notOk(started.isError, 'inline content starts a job');
  const job = JSON.parse(started.content[0].text);
  let rec = job;
  for (let i = 0; i < 600 && ['queued', 'running'].includes(rec.status); i++) {
    await new Promise((r) => setTimeout(r, 100));
    rec = JSON.parse((await call(admin, 'import_status', { id: job.id })).content[0].text);
  }
  t.match(rec, { status: 'succeeded', summary: { rows: 26, created: { molecules: 25 }, rejected: [{ row: 26 }] } }, 'import_status follows it to its end');
  const rest = (await app.inject({ url: `/api/imports/${job.id}`, headers: await tokenFor(services, 'admin@example.org', 'admin') })).json();
  t.same(rest.summary, rec.summary, 'the REST route answers the same job');
});

t.test('IMPORT_DIR unset: imports by path are refused', async (t) => {
  const built = await build(t, 'inline');
  const { app, services } = built!;
  const r = await app.inject({ method: 'POST', url: '/api/imports', headers: await tokenFor(services, 'admin@example.org', 'admin'), payload: { path: 'x.csv' } });
  t.equal(r.statusCode, 403);
  t.match(r.json().message, /set IMPORT_DIR/);
});
