/**
 * Bulk look-up (`POST /api/molecules/lookup`, `/api/lookups/{id}`, MCP `lookup_molecules`) over the
 * LOTUS demo catalog, checked against test/fixtures/lookup_reference.json: keys, first blocks,
 * names and SMILES from the demo files themselves, the InChIKeys of non-canonical SMILES from
 * native RDKit + the InChI executable (test/fixtures/tools/lookup_reference.py), never from the
 * service. Identifiers are assigned by the import, so they are read from the store by key.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { build, MODES } from '../helpers/app.ts';
import { importDemoOnce } from '../helpers/demo.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';
import { csvRecords, parseCsv, tokenFor } from '../search/export-helpers.ts';
import { classify, readCsv, readLines } from '../../api/catalog/lookup/input.ts';
import { lookupTool } from '../../api/mcp/lookup-tool.ts';
import type { ApiContext } from '../../api/chem/context.ts';

interface Ref {
  inchikeys: string[];
  blocks: { ambiguous: { block: string; keys: string[] }[]; found: { block: string; key: string }[] };
  smiles: { smiles: string; inchikey: string; in_catalog: boolean }[];
  unreadable: string[];
  names: { found: { name: string; key: string }[]; ambiguous: { name: string; keys: string[] }[] };
}
// Importing the demo set derives 1,242 structures per runner mode (the second reuses the first's).
t.setTimeout(900_000);

const ref = JSON.parse(readFileSync(new URL('../fixtures/lookup_reference.json', import.meta.url), 'utf8')) as Ref;
const FIELDS = ['identifier', 'standard_inchi_key', 'name'];

t.test('kinds of queries (no catalog)', async (t) => {
  const kinds = (qs: string[]) => qs.map((q) => classify(q).kind);
  t.same(kinds(['CNP0123456', 'cnp0000001', ' CNP0000002.1 ']), ['identifier', 'identifier', 'identifier']);
  t.same(kinds(['BSYNRYMUTXBXSQ-UHFFFAOYSA-N', 'bsynrymutxbxsq-uhfffaoysa-n', 'BSYNRYMUTXBXSQ', 'BSYNRYMUTXBXSQ-']), ['inchikey', 'inchikey', 'inchikey_block', 'inchikey_block']);
  t.same(kinds(['CCCCCCCCCCCCCC', 'CCO', 'c1ccccc1O', 'C[C@H](N)C(=O)O', '[Na+].[Cl-]', 'C1CC', 'CC(C)(C)(C)(C)C']), ['smiles', 'smiles', 'smiles', 'smiles', 'smiles', 'smiles', 'smiles'], '14 organic-subset capitals are a SMILES');
  t.same(kinds(['caffeine', 'Nicotine, (S)-', '(+)-catechol', 'morusyunnansin e', '1,3,7-trimethylxanthine', 'beta-carotene']), ['name', 'name', 'name', 'name', 'name', 'name']);
  t.same(kinds(['', '   ', '###', '--', 'a\u0001b', 'C'.repeat(5000)]), ['empty', 'empty', 'unknown', 'unknown', 'unknown', 'unknown']);
  t.same(classify('caffeine', 'smiles'), { kind: 'smiles', key: 'caffeine' }, 'a forced kind');
  t.same(classify('xyz', 'inchikey'), { kind: 'unknown', key: 'xyz' });
  t.same(classify('bsynrymutxbxsq', 'inchikey'), { kind: 'inchikey_block', key: 'BSYNRYMUTXBXSQ' });

  t.same(readLines('\uFEFFa\r\nb\n\nc\n\n\n', 10), ['a', 'b', '', 'c'], 'BOM, CRLF, a blank row kept, trailing blanks dropped');
  t.throws(() => readLines('a\nb\nc\n', 2), { status: 413, message: /has 3 rows; at most 2 .*LOOKUP_MAX_ROWS/ });
  const csv = 'id,"smiles, as drawn",name\r\n1,CCO,"ethanol, absolute"\r\n2,"C""C",x\r\n';
  t.same(readCsv(csv, { column: 'smiles, as drawn', maxRows: 10 }), ['CCO', 'C"C'], 'by header name, quotes');
  t.same(readCsv(csv, { column: '3', maxRows: 10 }), ['ethanol, absolute', 'x'], 'by number');
  t.same(readCsv('a\tname\n1\tfoo\n', { maxRows: 10 }), ['foo'], 'TSV, column auto-detected by its header');
  t.same(readCsv('CCO;x\nCCN;y\n', { column: 1, header: 'false', maxRows: 10 }), ['CCO', 'CCN'], 'no header, ; delimiter');
  t.throws(() => readCsv('a,b\n1,2\n', { maxRows: 10 }), { status: 422, message: /column field: its columns are "a", "b"/ });
  t.throws(() => readCsv('a,b\n1,2\n', { column: 'c', maxRows: 10 }), { status: 422, message: /"c" is not in the CSV/ });
  t.throws(() => readCsv('q\n1\n2\n3\n', { maxRows: 2 }), { status: 413, message: /LOOKUP_MAX_ROWS/ });
});

for (const mode of MODES) {
  t.test(`bulk look-up over the demo catalog (${mode})`, async (t) => {
    // Generous job timeouts: on a busy machine a derivation may wait long for a thread.
    const ctx = await build(t, mode, { WORKERS: '2', LOOKUP_SYNC_MAX: '120', LOOKUP_MAX_ROWS: '400', JOB_TIMEOUT_MS: '300000', TASK_TIMEOUT_MS: '300000' });
    if (!ctx) return skipAll(t, NO_REDIS);
    const { app, services } = ctx;
    await importDemoOnce(services);
    const owner = await tokenFor(services, 'owner@example.org', 'reader');
    const other = await tokenFor(services, 'other@example.org', 'reader');
    const idOf = new Map<string, string>();
    for (const d of await services.store.find('molecules', {}, { fields: ['identifier', 'standard_inchi_key'] })) idOf.set(d.standard_inchi_key as string, d.identifier as string);
    t.equal(idOf.size, 1242);
    const post = (payload: unknown, headers: Record<string, string> = {}, url = '/api/molecules/lookup') =>
      app.inject({ method: 'POST', url, headers: { ...owner, ...headers }, payload: payload as string });

    // The list: every kind, duplicates, misses and unreadable lines, in a known order.
    type Want = { q: string; kind: string; status: string; keys: string[] };
    const want: Want[] = [];
    for (const k of ref.inchikeys) want.push({ q: k, kind: 'inchikey', status: 'found', keys: [k] });
    for (const k of ref.inchikeys.slice(0, 5)) want.push({ q: idOf.get(k)!, kind: 'identifier', status: 'found', keys: [k] });
    want.push({ q: idOf.get(ref.inchikeys[5])!.toLowerCase(), kind: 'identifier', status: 'found', keys: [ref.inchikeys[5]] });
    for (const b of ref.blocks.found) want.push({ q: b.block, kind: 'inchikey_block', status: 'found', keys: [b.key] });
    for (const b of ref.blocks.ambiguous) want.push({ q: b.block, kind: 'inchikey_block', status: 'ambiguous', keys: b.keys });
    for (const s of ref.smiles) want.push({ q: s.smiles, kind: 'smiles', status: s.in_catalog ? 'found' : 'not found', keys: s.in_catalog ? [s.inchikey] : [] });
    for (const s of ref.unreadable) want.push({ q: s, kind: 'smiles', status: 'unreadable', keys: [] });
    for (const n of ref.names.found) want.push({ q: n.name, kind: 'name', status: 'found', keys: [n.key] });
    for (const n of ref.names.ambiguous) want.push({ q: n.name.toUpperCase(), kind: 'name', status: 'ambiguous', keys: n.keys });
    want.push({ q: 'AAAAAAAAAAAAAA-AAAAAAAAAA-N', kind: 'inchikey', status: 'not found', keys: [] });
    want.push({ q: 'CNP9999999', kind: 'identifier', status: 'not found', keys: [] });
    want.push({ q: 'no such natural product', kind: 'name', status: 'not found', keys: [] });
    want.push({ q: '', kind: 'empty', status: 'unreadable', keys: [] });
    want.push({ q: '###', kind: 'unknown', status: 'unreadable', keys: [] });
    // Duplicates: answered again, in place.
    want.push({ ...want[0] }, { ...want.find((w) => w.kind === 'smiles')! }, { ...want.find((w) => w.kind === 'inchikey_block' && w.status === 'ambiguous')! });
    // Shuffle deterministically, so that kinds interleave.
    const list = want.map((w, i) => ({ w, r: (i * 7919) % 101 })).sort((a, b) => a.r - b.r || 0).map((x) => x.w);
    t.ok(list.length <= 120, `${list.length} rows: answered at once`);

    const check = (rows: Record<string, string>[], label: string) => {
      t.equal(rows.length, list.length, `${label}: one row per query`);
      let bad = 0;
      list.forEach((w, i) => {
        const r = rows[i];
        const ids = w.keys.map((k) => idOf.get(k)!).sort();
        const ok =
          r.input === w.q &&
          r.kind === w.kind &&
          r.status === w.status &&
          Number(r.match_count) === w.keys.length &&
          (w.status === 'found' ? r.matches === ids[0] && r.standard_inchi_key === w.keys[0] && r.identifier === ids[0] : r.standard_inchi_key === '') &&
          (w.status === 'ambiguous' ? r.matches.split('|').sort().join('|') === ids.join('|') : true);
        if (!ok && bad++ < 5) t.fail(`${label}: row ${i} ${JSON.stringify(r)} wants ${JSON.stringify(w)}`);
      });
      t.equal(bad, 0, `${label}: every row as the reference says, in input order`);
    };

    const json = await post({ queries: list.map((w) => w.q), fields: FIELDS });
    t.equal(json.statusCode, 200, json.statusCode === 200 ? 'JSON queries: 200' : json.body);
    t.equal(json.headers['content-type'], 'text/csv; charset=utf-8');
    t.match(json.headers['content-disposition'], /attachment; filename="natprod-lookup-.*\.csv"/);
    t.same(parseCsv(json.body)[0], ['input', 'kind', 'status', 'match_count', 'matches', ...FIELDS]);
    check(csvRecords(json.body), 'JSON queries');

    // The same list as text lines (the empty query is a blank line inside the list).
    const text = await post(list.map((w) => w.q).join('\n') + '\n', { 'content-type': 'text/plain' }, `/api/molecules/lookup?fields=${FIELDS.join(',')}`);
    t.equal(text.statusCode, 200, text.statusCode === 200 ? 'text lines: 200' : text.body);
    t.equal(text.body, json.body, 'text/plain lines: the same answer');

    t.test('default fields, and properties', async (t) => {
      const k = ref.inchikeys[3];
      const res = await post({ queries: [k] });
      const [row] = csvRecords(res.body);
      const doc = (await services.store.findOne('molecules', { standard_inchi_key: k }))!;
      t.same(Object.keys(row), ['input', 'kind', 'status', 'match_count', 'matches', 'id', 'identifier', 'name', 'canonical_smiles', 'standard_inchi_key', 'molecular_formula', 'molecular_weight', 'molecule.status'], 'the molecule\'s status is headed molecule.status');
      t.equal(row.status, 'found');
      t.equal(row['molecule.status'], doc.status);
      t.equal(row.id, String(doc.id));
      const props = doc.properties as Record<string, unknown>;
      const withProps = csvRecords((await post({ queries: [k], fields: ['properties.molecular_weight', 'alogp', 'has_stereo'] })).body)[0];
      t.equal(Number(withProps['properties.molecular_weight']), props.molecular_weight);
      t.equal(Number(withProps.alogp), props.alogp);
      t.equal(withProps.has_stereo, String(doc.has_stereo));
    });

    t.test('CSV uploads: header, column choice, auto-detection', async (t) => {
      const rows = list.filter((w) => w.kind === 'smiles' || w.kind === 'name');
      const csv = ['note,query_smiles,"kind, as given"', ...rows.map((w, i) => `${i},"${w.q.replace(/"/g, '""')}",${w.kind}`)].join('\r\n') + '\r\n';
      const boundary = '----lookup';
      const form = (parts: [string, string][], file: string, filename = 'list.csv', type = 'text/csv') =>
        [
          ...parts.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${file}\r\n--${boundary}--\r\n`,
        ].join('');
      const mp = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      const byName = await post(form([['column', 'query_smiles'], ['fields', FIELDS.join(',')]], csv), mp);
      t.equal(byName.statusCode, 200, byName.statusCode === 200 ? 'a CSV upload: 200' : byName.body);
      const got = csvRecords(byName.body);
      t.same(got.map((r) => r.input), rows.map((w) => w.q), 'the chosen column, in order');
      t.same(got.map((r) => r.status), rows.map((w) => w.status));
      const byNumber = await post(form([['column', '2'], ['fields', JSON.stringify(FIELDS)]], csv), mp);
      t.equal(byNumber.body, byName.body, 'the column by number: the same answer');
      const plain = await post(form([], rows.map((w) => w.q).join('\n'), 'list.txt', 'text/plain'), mp);
      t.same(csvRecords(plain.body).map((r) => r.status), rows.map((w) => w.status), 'a text file: one query per line');
      const auto = await post('inchikey,note\n' + ref.inchikeys.slice(0, 3).join(',x\n') + ',x\n', { 'content-type': 'text/csv' });
      t.same(csvRecords(auto.body).map((r) => [r.input, r.status]), ref.inchikeys.slice(0, 3).map((k) => [k, 'found']), 'a text/csv body, the column found by its header');
      const noColumn = await post(form([], 'a,b\n1,2\n'), mp);
      t.equal(noColumn.statusCode, 422);
      t.match(noColumn.json().message, /column field: its columns are "a", "b"/);
      const wrongFile = await post(form([], 'x').replace('name="file"', 'name="upload"'), mp);
      t.equal(wrongFile.statusCode, 422, 'a file under another name');
      t.match(wrongFile.json().message, /upload one list as 'file'/);
    });

    t.test('limits and bad input: 4xx naming the problem', async (t) => {
      const many = Array.from({ length: 401 }, (_, i) => `CNP${String(i).padStart(7, '0')}`);
      const over = await post({ queries: many });
      t.equal(over.statusCode, 413);
      t.match(over.json().message, /401 rows; at most 400 .*LOOKUP_MAX_ROWS/);
      const overText = await post(many.join('\n'), { 'content-type': 'text/plain' });
      t.equal(overText.statusCode, 413);
      t.match(overText.json().message, /LOOKUP_MAX_ROWS/);

      const injection = await post({ queries: [{ $gt: '' }] });
      t.equal(injection.statusCode, 422);
      t.same(injection.json().errors, { 'queries.0': ['The queries.0 field must be a string.'] });
      const cases: [unknown, string][] = [
        [{ queries: 'CCO' }, 'queries'],
        [{ queries: { $in: ['CCO'] } }, 'queries'],
        [{ queries: ['CCO', 5, null] }, 'queries.1'],
        [{}, 'queries'],
        [{ queries: ['CCO'], fields: ['password_hash'] }, 'fields.0'],
        [{ queries: ['CCO'], fields: 'identifier' }, 'fields'],
        [{ queries: ['CCO'], fields: [] }, 'fields'],
        [{ queries: ['CCO'], kind: 'inchi' }, 'kind'],
        [{ queries: ['CCO'], async: 'yes please' }, 'async'],
        [{ queries: ['CCO'], $where: '1' }, '$where'],
      ];
      for (const [body, key] of cases) {
        const r = await post(body);
        t.equal(r.statusCode, 422, JSON.stringify(body));
        t.ok(r.json().errors?.[key], `${JSON.stringify(body)} names ${key}: ${r.body}`);
      }
      const empty = await post({ queries: [] });
      t.equal(empty.statusCode, 422);
      t.match(empty.json().message, /empty/);
      t.equal((await post('', { 'content-type': 'text/plain' })).statusCode, 422, 'an empty text body');
      t.equal((await post([1, 2] as unknown as string)).statusCode, 422, 'a JSON array body');
      t.equal((await app.inject({ method: 'POST', url: '/api/molecules/lookup', payload: { queries: ['CCO'] } })).statusCode, 401, 'no token');
      t.equal((await app.inject({ method: 'GET', url: '/api/molecules/lookup', headers: owner })).statusCode, 405);
    });

    t.test('a list over LOOKUP_SYNC_MAX: a job with progress and a download', async (t) => {
      const keys = [...idOf.keys()].slice(0, 150);
      const queries = [...keys, ...ref.unreadable, ...keys.slice(0, 5)];
      const res = await post({ queries, fields: ['identifier', 'standard_inchi_key'] });
      t.equal(res.statusCode, 202, res.statusCode === 202 ? 'a job: 202' : res.body);
      const { job_id: id, status_url, total } = res.json();
      t.equal(total, queries.length);
      t.match(status_url, new RegExp(`/api/lookups/${id}$`));
      let rec: Record<string, any> = {};
      const seen: number[] = [];
      for (let i = 0; i < 600; i++) {
        const r = await app.inject({ url: `/api/lookups/${id}`, headers: owner });
        t.equal(r.statusCode, 200);
        rec = r.json();
        seen.push(rec.progress.rows);
        if (rec.status === 'succeeded' || rec.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 25));
      }
      t.equal(rec.status, 'succeeded', rec.error);
      t.same(rec.progress, { rows: queries.length, total: queries.length });
      t.ok(seen.every((n, i) => i === 0 || n >= seen[i - 1]), 'progress never goes back');
      t.match(rec.download_url, new RegExp(`/api/lookups/${id}/download$`));
      const file = await app.inject({ url: `/api/lookups/${id}/download`, headers: owner });
      t.equal(file.statusCode, 200);
      const rows = csvRecords(file.body);
      t.same(rows.map((r) => r.input), queries, 'input order');
      t.same(rows.map((r) => r.standard_inchi_key), [...keys, ...ref.unreadable.map(() => ''), ...keys.slice(0, 5)]);
      t.same(rows.map((r) => r.identifier), [...keys.map((k) => idOf.get(k)), ...ref.unreadable.map(() => ''), ...keys.slice(0, 5).map((k) => idOf.get(k))]);
      t.equal((await app.inject({ url: `/api/lookups/${id}`, headers: other })).statusCode, 403, 'another user: 403');
      t.equal((await app.inject({ url: `/api/lookups/${id}/download`, headers: other })).statusCode, 403);
      t.equal((await app.inject({ url: '/api/lookups/00000000-0000-4000-8000-000000000000', headers: owner })).statusCode, 404);

      const small = await post({ queries: keys.slice(0, 2), async: true });
      t.equal(small.statusCode, 202, 'async: true, a job whatever the size');
    });

    t.test('MCP lookup_molecules: the same rows as JSON', async (t) => {
      const context = { runner: services.runner, config: ctx.config, store: services.store, baseUrl: 'http://x', prefix: '' } as unknown as ApiContext;
      const deps = { context, structure: services.structure };
      const res = await lookupTool.call(deps, { queries: list.map((w) => w.q), fields: FIELDS });
      t.notOk(res.isError, JSON.stringify(res.content).slice(0, 300));
      const { rows } = JSON.parse((res.content[0] as { text: string }).text) as { rows: { input: string; status: string; match_count: number; matches: string[]; molecule: Record<string, unknown> | null }[] };
      const rest = csvRecords(json.body);
      t.same(
        rows.map((r) => [r.input, r.status, r.match_count, r.matches.join('|'), r.molecule?.standard_inchi_key ?? '']),
        rest.map((r) => [r.input, r.status, Number(r.match_count), r.matches, r.standard_inchi_key]),
        'as the REST answer',
      );
      const tooMany = await lookupTool.call(deps, { queries: Array.from({ length: 1001 }, () => 'CCO') });
      t.ok(tooMany.isError);
      t.match((tooMany.content[0] as { text: string }).text, /Status code: 413.*At most 1000 queries/);
      const inject = await lookupTool.call(deps, { queries: [{ $gt: '' }] });
      t.match((inject.content[0] as { text: string }).text, /Status code: 422.*queries\.0/);
    });
  });
}
