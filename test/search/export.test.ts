/**
 * Catalog exports (`POST /api/molecules/export`), in both runner modes, on 30 molecules created
 * through mutate: SMILES lines; SDF records whose molblocks (made on the chemistry threads) have
 * RDKit's atom count and read back to the record's InChIKey; CSV that parses per RFC 4180 with
 * quoting and formula defusing; exports filtered by a structure query or by structure operators
 * equal to the hit sets of `POST /api/search`; paging over several pages; the job path
 * (EXPORT_SYNC_MAX lowered to 5): 202, progress, download, 403 for another user, 404 unknown,
 * expiry and shutdown; and 422s for bad requests.
 */
import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundWork } from '../../api/catalog/actions/background.ts';
import { csvCell } from '../../api/catalog/export/format.ts';
import { ExportJobs } from '../../api/catalog/export/jobs.ts';
import { exportText, planExport, validateExportRequest } from '../../api/catalog/export/export.ts';
import type { ValidationError } from '../../api/catalog/schema/types.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { build, MODES } from '../helpers/app.ts';
import { csvRecords, INDOLE, MOLECULES, molblockAtoms, parseCsv, parseSdf, QUERCETIN, seed, tokenFor } from './export-helpers.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const rdkit = await loadRDKit();

t.test('CSV cells: RFC 4180 quoting and formula defusing', async (t) => {
  t.equal(csvCell('plain'), 'plain');
  t.equal(csvCell('a,b'), '"a,b"');
  t.equal(csvCell('say "hi"'), '"say ""hi"""');
  t.equal(csvCell('two\nlines'), '"two\nlines"');
  t.equal(csvCell('=1+2'), "'=1+2");
  t.equal(csvCell('+1'), "'+1");
  t.equal(csvCell('-x'), "'-x");
  t.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  t.equal(csvCell('\tx'), "'\tx");
  t.equal(csvCell('=HYPERLINK("a","b")'), `"'=HYPERLINK(""a"",""b"")"`, 'defused, then quoted');
  t.equal(csvCell(-1.25), '-1.25', 'numbers stay numbers');
  t.equal(csvCell(null), '');
  t.equal(csvCell(['a', 'b']), 'a; b');
  t.equal(csvCell(true), 'true');
});

t.test('request validation (no app needed)', async (t) => {
  const errorsOf = (body: unknown) => {
    try {
      validateExportRequest(body);
    } catch (e) {
      return (e as ValidationError).errors;
    }
    throw new Error('no validation error');
  };
  t.match(errorsOf({ format: 'xls' }), { format: [/"xls"/] }, 'unknown format named');
  t.match(errorsOf({}), { format: [/required/] });
  t.match(errorsOf({ format: 'csv', where: 1 }), { where: [/prohibited/] });
  t.match(errorsOf({ format: 'csv', search: { page: 2, limit: 10 } }), { 'search.page': [/prohibited/], 'search.limit': [/prohibited/] });
  t.match(errorsOf({ format: 'smi', fields: ['name'] }), { fields: [/smi/] });
  t.match(errorsOf({ format: 'csv', fields: ['name', 'nope'] }), { 'fields.1': [/"nope"/] });
  t.match(errorsOf({ format: 'csv', fields: ['similarity'] }), { 'fields.0': [/similarity/] });
  t.match(errorsOf({ format: 'csv', fields: ['name', 'name'] }), { 'fields.1': [/duplicate/] });
  t.match(errorsOf({ format: 'csv', async: 'yes' }), { async: [/true or false/] });
  t.match(errorsOf({ format: 'csv', structure: { type: 'substructure', query: 'c1ccccc1', threshold: 0.5 } }), { 'structure.threshold': [/only allowed/] });
  t.match(errorsOf({ format: 'csv', structure: { type: 'substructure', query: 'c1ccccc1', $where: 1 } }), { 'structure.$where': [/prohibited/] });
  const ok = validateExportRequest({ format: 'csv', structure: { type: 'similarity', query: 'c1ccccc1' }, fields: ['name', 'similarity', 'properties.alogp', 'alogp'] });
  t.same(ok.fields, ['name', 'similarity', 'properties.alogp', 'alogp']);
  t.match(validateExportRequest({ format: 'sdf', structure: { type: 'similarity', query: 'c1ccccc1' } }).fields, ['id', 'identifier'], 'default fields');
});

for (const mode of MODES) {
  t.test(`exports (${mode})`, async (t) => {
    const ctx = await build(t, mode, { WORKERS: '2' });
    if (!ctx) return skipAll(t, NO_REDIS);
    const { app, services } = ctx;
    const { auth } = await seed(app, services);
    const exp = (payload: unknown, headers: Record<string, string> = auth) => app.inject({ method: 'POST', url: '/api/molecules/export', headers, payload: payload as object });
    const structureHits = async (body: Record<string, unknown>) => {
      const r = await app.inject({ method: 'POST', url: '/api/search', payload: { ...body, limit: 100, count: true } });
      t.equal(r.statusCode, 200, `/api/search ${body.type}: 200`);
      return r.json().data as { standard_inchi_key: string; similarity?: number; id: number }[];
    };

    t.test('SMILES: SMILES<TAB>identifier per line', async (t) => {
      const res = await exp({ format: 'smi' });
      t.equal(res.statusCode, 200, res.body.slice(0, 300));
      t.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
      t.match(res.headers['content-disposition'], /^attachment; filename="molecules-\d{8}-\d{6}\.smi"$/);
      t.equal(res.headers['x-total-count'], '30');
      const lines = res.body.split('\n');
      t.equal(lines.pop(), '', 'ends with a newline');
      t.equal(lines.length, MOLECULES.length);
      const stored = (await services.store.find('molecules', {})).sort((a, b) => a.id - b.id);
      t.same(
        lines,
        stored.map((d) => `${d.canonical_smiles}\t${d.identifier}`),
        'the stored canonical SMILES and identifiers, by id',
      );
      t.ok(lines.every((l) => /^\S+\tCNP\d{7}(\.\d+)?$/.test(l)));
    });

    t.test('SDF: molblocks from the threads, data items, parse back', async (t) => {
      const res = await exp({ format: 'sdf' });
      t.equal(res.statusCode, 200);
      t.equal(res.headers['content-type'], 'chemical/x-mdl-sdfile');
      t.match(res.headers['content-disposition'], /filename="molecules-.*\.sdf"/);
      t.equal(res.body.match(/^\$\$\$\$$/gm)?.length, MOLECULES.length, '30 $$$$ terminators');
      const recs = parseSdf(res.body);
      t.equal(recs.length, MOLECULES.length);
      for (const r of recs) {
        t.match(r.title, /^CNP\d{7}(\.\d+)?$/, 'the identifier is the title line');
        t.same(Object.keys(r.data), ['id', 'identifier', 'name', 'canonical_smiles', 'standard_inchi_key', 'molecular_formula', 'molecular_weight', 'status']);
        const smilesMol = rdkit.get_mol(r.data.canonical_smiles)!;
        const back = rdkit.get_mol(r.molblock)!;
        try {
          t.ok(back.is_valid(), `${r.title}: the molblock reads back`);
          t.equal(molblockAtoms(r.molblock), smilesMol.get_num_atoms(), `${r.title}: atom count as RDKit`);
          t.equal(rdkit.get_inchikey_for_inchi(back.get_inchi()), r.data.standard_inchi_key, `${r.title}: same InChIKey`);
          t.match(r.molblock, /RDKit {10}2D/, '2D coordinates');
        } finally {
          smilesMol.delete();
          back.delete();
        }
      }
      const geraniol = recs.find((r) => r.data.name.startsWith('geraniol'))!;
      t.equal(geraniol.data.name, 'geraniol "rose" alcohol', 'a line break in a value becomes a space');
    });

    t.test('CSV: RFC 4180, header, defused cells, chosen fields', async (t) => {
      const res = await exp({ format: 'csv', fields: ['identifier', 'name', 'alogp', 'properties.molecular_weight', 'has_stereo', 'cas'] });
      t.equal(res.statusCode, 200);
      t.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      t.ok(res.body.endsWith('\r\n'));
      const rows = parseCsv(res.body);
      t.same(rows[0], ['identifier', 'name', 'alogp', 'properties.molecular_weight', 'has_stereo', 'cas']);
      t.equal(rows.length, MOLECULES.length + 1);
      t.ok(rows.every((r) => r.length === 6), 'every row has 6 cells');
      const names = rows.slice(1).map((r) => r[1]);
      t.ok(names.includes(`'=HYPERLINK("http://evil.example","click")`), 'formula defused, quotes and comma survive');
      t.ok(names.includes('Nicotine, (S)-'), 'a comma inside a quoted field');
      t.ok(names.includes("'+camphor") && names.includes("'-menthol") && names.includes("'@limonene"), '+ - @ defused');
      t.ok(names.includes('geraniol\n"rose" alcohol'), 'a line break and quotes inside a quoted field');
      const glucose = rows.find((r) => r[1] === 'beta-D-Glucose')!;
      t.match(glucose[2], /^-\d/, 'a negative number is not defused');
      t.match(glucose[3], /^180\.1/);
      t.equal(glucose[4], 'true');
      const defaults = csvRecords((await exp({ format: 'csv' })).body);
      t.same(Object.keys(defaults[0]), ['id', 'identifier', 'name', 'canonical_smiles', 'standard_inchi_key', 'molecular_formula', 'molecular_weight', 'status']);
      t.same(defaults.map((r) => Number(r.id)), [...defaults.map((r) => Number(r.id))].sort((a, b) => a - b), 'by id ascending');
    });

    t.test('search filters, scopes and sorts', async (t) => {
      const heavy = csvRecords((await exp({ format: 'csv', search: { filters: [{ field: 'properties.molecular_weight', operator: '>', value: 300 }], sorts: [{ field: 'name', direction: 'desc' }] } })).body);
      const viaSearch = await app.inject({ method: 'POST', url: '/api/molecules/search', headers: auth, payload: { search: { filters: [{ field: 'properties.molecular_weight', operator: '>', value: 300 }], sorts: [{ field: 'name', direction: 'desc' }], limit: 50 } } });
      t.same(heavy.map((r) => r.standard_inchi_key), viaSearch.json().data.map((d: { standard_inchi_key: string }) => d.standard_inchi_key), 'same molecules in the same order as the search');
      t.ok(heavy.length > 3 && heavy.length < 30);
      const none = await exp({ format: 'csv', search: { scopes: [{ name: 'approved' }] } });
      t.equal(none.statusCode, 200);
      t.equal(parseCsv(none.body).length, 1, 'nothing approved: the header alone');
    });

    t.test('a structure-filtered export equals the /api/search hit set', async (t) => {
      const indole = await structureHits({ type: 'substructure', query: INDOLE });
      t.ok(indole.length >= 6, `${indole.length} indoles`);
      const byStructure = csvRecords((await exp({ format: 'csv', structure: { type: 'substructure', query: INDOLE } })).body);
      t.same(byStructure.map((r) => r.standard_inchi_key).sort(), indole.map((d) => d.standard_inchi_key).sort(), 'structure: the same hits');
      const byOperator = csvRecords((await exp({ format: 'csv', search: { filters: [{ field: 'canonical_smiles', operator: 'substructure', value: INDOLE }] } })).body);
      t.same(byOperator.map((r) => r.standard_inchi_key).sort(), indole.map((d) => d.standard_inchi_key).sort(), 'substructure operator: the same hits');

      const similar = await structureHits({ type: 'similarity', query: QUERCETIN, threshold: 0.4 });
      const simExport = csvRecords((await exp({ format: 'csv', structure: { type: 'similarity', query: QUERCETIN, threshold: 0.4 } })).body);
      t.same(
        simExport.map((r) => [r.standard_inchi_key, Number(r.similarity)]),
        similar.map((d) => [d.standard_inchi_key, d.similarity]),
        'similarity: same hits, best first, with their scores',
      );
      // Intersected with the search.
      const heavySim = csvRecords((await exp({ format: 'csv', structure: { type: 'similarity', query: QUERCETIN, threshold: 0.4 }, search: { filters: [{ field: 'properties.molecular_weight', operator: '>', value: 280 }] } })).body);
      const expected = simExport.filter((r) => Number(r.molecular_weight) > 280);
      t.ok(expected.length > 0 && expected.length < simExport.length, 'the weight filter removes some');
      t.same(heavySim.map((r) => r.standard_inchi_key), expected.map((r) => r.standard_inchi_key), 'structure hits ∩ search, in score order');
      const sorted = csvRecords((await exp({ format: 'csv', structure: { type: 'substructure', query: INDOLE }, search: { sorts: [{ field: 'name' }] } })).body);
      t.same(sorted.map((r) => r.name), byStructure.map((r) => r.name).sort(), 'sorted by name (binary order)');

      const exact = (await exp({ format: 'smi', structure: { type: 'exact', query: QUERCETIN } })).body.trim().split('\n');
      t.equal(exact.length, 1, 'exact: one line');
      const sdf = parseSdf((await exp({ format: 'sdf', structure: { type: 'substructure', query: INDOLE } })).body);
      t.same(sdf.map((r) => r.data.standard_inchi_key).sort(), indole.map((d) => d.standard_inchi_key).sort(), 'SDF too');
    });

    t.test('pages: every molecule once whatever the page size', async (t) => {
      const all = (await services.store.find('molecules', {})).map((d) => d.id).sort((a, b) => a - b);
      const collect = async (body: unknown) => {
        const plan = await planExport(validateExportRequest(body), { store: services.store, structure: services.structure, pageSize: 7 });
        const pages: number[][] = [];
        for await (const docs of plan.pages()) pages.push(docs.map((d) => d.id));
        return { plan, pages, ids: pages.flat() };
      };
      const keyset = await collect({ format: 'csv' });
      t.same(keyset.ids, all, 'by id > last id');
      t.same(keyset.pages.map((p) => p.length), [7, 7, 7, 7, 2]);
      t.equal(keyset.plan.total, 30);
      const sorted = await collect({ format: 'csv', search: { sorts: [{ field: 'name' }] } });
      t.same([...sorted.ids].sort((a, b) => a - b), all, 'sorted: every molecule once');
      const hits = await structureHits({ type: 'substructure', query: 'c1ccccc1' });
      const structure = await collect({ format: 'csv', structure: { type: 'substructure', query: 'c1ccccc1' }, search: { filters: [{ field: 'name', operator: '!=', value: 'Harmine' }] } });
      const harmine = (await services.store.findOne('molecules', { name: 'Harmine' }))!.id;
      t.same([...structure.ids].sort((a, b) => a - b), hits.map((h) => h.id).filter((id) => id !== harmine).sort((a, b) => a - b), 'structure hits ∩ filter');
      t.equal(structure.plan.total, structure.ids.length);
      t.ok(structure.pages.every((p) => p.length <= 7));
      let rows = 0;
      const text: string[] = [];
      for await (const chunk of exportText(keyset.plan, async () => [], { onRows: (n) => (rows = n) })) text.push(chunk);
      t.equal(rows, 30, 'rows reported');
      t.equal(text.length, 6, 'a header and one piece per page');
    });

    t.test('bad requests: 422 naming the problem; 401, 405', async (t) => {
      const xls = await exp({ format: 'xls' });
      t.equal(xls.statusCode, 422);
      t.match(xls.json(), { message: /"xls"/, errors: { format: [/smi, sdf or csv/] } });
      for (const [query, extra] of [['C1CC(', {}], ['[C;X9', { query_type: 'smarts' }], ['not a molecule', {}]] as const) {
        const type = query === 'not a molecule' ? 'exact' : 'substructure';
        const viaSearch = await app.inject({ method: 'POST', url: '/api/search', payload: { type, query, count: false, ...extra } });
        const viaExport = await exp({ format: 'csv', structure: { type, query, ...extra } });
        t.equal(viaExport.statusCode, 422, `${query}: 422`);
        t.same(viaExport.json(), viaSearch.json(), `${query}: the same answer as /api/search`);
      }
      const op = await exp({ format: 'csv', search: { filters: [{ field: 'canonical_smiles', operator: 'substructure', value: 'C1CC(' }] } });
      t.equal(op.statusCode, 422);
      const unknown = await exp({ format: 'csv', limit: 10, search: { includes: [{ relation: 'organisms' }] } });
      t.equal(unknown.statusCode, 422);
      t.match(unknown.json().errors, { limit: [/prohibited/], 'search.includes': [/prohibited/] });
      t.equal((await exp({ format: 'csv' }, {})).statusCode, 401);
      t.equal((await app.inject({ method: 'GET', url: '/api/molecules/export', headers: auth })).statusCode, 405);
      const reader = await tokenFor(services, 'reader@example.org', 'reader');
      t.equal((await exp({ format: 'smi' }, reader)).statusCode, 200, 'a reader may export');
    });

    t.test('"async": true makes a job even for a small export', async (t) => {
      const res = await exp({ format: 'smi', async: true });
      t.equal(res.statusCode, 202);
      const body = res.json();
      t.match(body, { job_id: /^[0-9a-f-]{36}$/, status: /queued|running|succeeded/, status_url: new RegExp(`/api/exports/${body.job_id}$`), total: 30 });
      t.equal(res.headers.location, body.status_url);
      const done = await poll(body.job_id);
      t.equal(done.status, 'succeeded');
      const file = await app.inject({ url: `/api/exports/${body.job_id}/download`, headers: auth });
      t.equal(file.body, (await exp({ format: 'smi' })).body, 'the same text as the streamed answer');
    });

    async function poll(id: string) {
      for (let i = 0; i < 400; i++) {
        const r = await app.inject({ url: `/api/exports/${id}`, headers: auth });
        const rec = r.json();
        if (rec.status === 'succeeded' || rec.status === 'failed') return rec;
        await new Promise((res) => setTimeout(res, 50));
      }
      throw new Error('export did not finish');
    }
  });

  t.test(`export jobs over EXPORT_SYNC_MAX (${mode})`, async (t) => {
    const ctx = await build(t, mode, { EXPORT_SYNC_MAX: '5' });
    if (!ctx) return skipAll(t, NO_REDIS);
    const { app, services, config } = ctx;
    const { auth } = await seed(app, services);
    const owner = await tokenFor(services, 'owner@example.org', 'reader');
    const other = await tokenFor(services, 'other@example.org', 'reader');

    const small = await app.inject({ method: 'POST', url: '/api/molecules/export', headers: owner, payload: { format: 'csv', structure: { type: 'exact', query: QUERCETIN } } });
    t.equal(small.statusCode, 200, 'at most EXPORT_SYNC_MAX: streamed');

    const res = await app.inject({ method: 'POST', url: '/api/molecules/export', headers: owner, payload: { format: 'sdf', fields: ['identifier', 'name', 'standard_inchi_key'] } });
    t.equal(res.statusCode, 202, '30 > 5: a job');
    const { job_id: id, status_url } = res.json();
    t.match(status_url, /^http:\/\/[^/]+\/api\/exports\//);
    const seen: number[] = [];
    let rec: Record<string, any> = {};
    for (let i = 0; i < 400; i++) {
      const r = await app.inject({ url: `/api/exports/${id}`, headers: owner });
      t.equal(r.statusCode, 200);
      rec = r.json();
      seen.push(rec.progress.rows);
      if (rec.status === 'succeeded' || rec.status === 'failed') break;
      if (i === 0) {
        const early = await app.inject({ url: `/api/exports/${id}/download`, headers: owner });
        if (rec.status !== 'succeeded') t.ok([409, 200].includes(early.statusCode), 'not ready yet: 409');
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    t.equal(rec.status, 'succeeded', rec.error);
    t.same(rec.progress, { rows: 30, total: 30 });
    t.ok(seen.every((n, i) => i === 0 || n >= seen[i - 1]), 'progress never goes back');
    t.match(rec, { format: 'sdf', filename: /\.sdf$/, download_url: new RegExp(`/api/exports/${id}/download$`), expires_at: String, size: Number });
    t.ok(existsSync(join(config.DATA_DIR, 'exports', `${id}.sdf`)), 'the file is under DATA_DIR/exports');

    const file = await app.inject({ url: `/api/exports/${id}/download`, headers: owner });
    t.equal(file.statusCode, 200);
    t.equal(file.headers['content-type'], 'chemical/x-mdl-sdfile');
    t.equal(file.headers['content-length'], String(rec.size));
    const recs = parseSdf(file.body);
    t.equal(recs.length, 30);
    t.same(Object.keys(recs[0].data), ['identifier', 'name', 'standard_inchi_key']);
    const keys = (await services.store.find('molecules', {})).map((d) => d.standard_inchi_key).sort();
    t.same(recs.map((r) => r.data.standard_inchi_key).sort(), keys, 'every molecule');

    t.equal((await app.inject({ url: `/api/exports/${id}`, headers: other })).statusCode, 403, "another user: 403 on the status");
    t.equal((await app.inject({ url: `/api/exports/${id}/download`, headers: other })).statusCode, 403, 'and on the file');
    t.equal((await app.inject({ url: `/api/exports/${id}`, headers: auth })).statusCode, 200, 'an admin may read it');
    t.equal((await app.inject({ url: `/api/exports/${id}` })).statusCode, 401);
    t.equal((await app.inject({ url: '/api/exports/00000000-0000-4000-8000-000000000000', headers: owner })).statusCode, 404);
    t.equal((await app.inject({ url: '/api/exports/..%2F..%2Fcatalog.lock', headers: owner })).statusCode, 404, 'no path tricks');
  });
}

t.test('export jobs: expiry, a stopped process, shutdown', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-exports-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const quiet = { info() {}, warn() {}, error() {} };
  const background = new BackgroundWork(quiet);
  const jobs = new ExportJobs({ dir, ttlSeconds: 1, background });
  t.teardown(() => jobs.close());
  async function* lines() {
    yield 'a\n';
    yield 'b\n';
  }
  const rec = await jobs.submit({ format: 'smi', filename: 'x.smi', total: 2, userId: 1 }, () => lines());
  await background.idle();
  const done = (await jobs.get(rec.id))!;
  t.equal(done.status, 'succeeded');
  t.equal(done.size, 4);
  t.same((await readdir(dir)).sort(), [`${rec.id}.json`, `${rec.id}.smi`]);
  await new Promise((r) => setTimeout(r, 1_100));
  t.equal(await jobs.get(rec.id), undefined, 'expired after JOB_RESULT_TTL');
  t.same(await readdir(dir), [], 'its files deleted');

  // A record left running by a process that stopped (no heartbeat for a minute) reads as failed.
  const id = '11111111-2222-4333-8444-555555555555';
  const old = new Date(Date.now() - 120_000).toISOString();
  await writeFile(join(dir, `${id}.json`), JSON.stringify({ id, status: 'running', format: 'csv', filename: 'y.csv', rows: 3, total: 10, user_id: 1, created_at: old, heartbeat_at: old }));
  await writeFile(join(dir, `${id}.csv.part`), 'partial');
  const stale = (await jobs.get(id))!;
  t.equal(stale.status, 'failed');
  t.match(stale.error, /stopped/);
  t.notOk(existsSync(join(dir, `${id}.csv.part`)), 'its partial file deleted');

  // Shutdown: a running job is aborted between pieces, ends failed, and leaves no partial file.
  const bg2 = new BackgroundWork(quiet);
  const jobs2 = new ExportJobs({ dir, ttlSeconds: 60, background: bg2 });
  t.teardown(() => jobs2.close());
  async function* slow(signal: AbortSignal) {
    for (let i = 0; i < 1000 && !signal.aborted; i++) {
      yield `${i}\n`;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const running = await jobs2.submit({ format: 'smi', filename: 'z.smi', total: 1000, userId: 1 }, (signal) => slow(signal));
  await new Promise((r) => setTimeout(r, 100));
  await bg2.close();
  const stopped = (await jobs2.get(running.id))!;
  t.equal(stopped.status, 'failed');
  t.match(stopped.error, /server stopped/);
  t.notOk(readdirSync(dir).some((n) => n.startsWith(running.id) && !n.endsWith('.json')), 'no partial file left');
});
