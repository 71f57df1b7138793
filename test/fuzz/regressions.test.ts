/**
 * Regression cases for what the fuzzer (test/fuzz, issue 15.1) found: each answered 500, hung, or
 * left a chemistry thread broken. Each case is the smallest input that showed it; the comment
 * names the fix.
 */
import t from 'tap';
import http from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { build } from '../helpers/app.ts';
import { multipart } from './gen/http.ts';
import { corpus } from './corpus.ts';
import { testThreadConfig } from '../helpers/task.ts';

const EMPTY_V2000 = '\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n';
const EMPTY_V9999 = '\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V9999\nM  V30 BEGIN CTAB\nM  V30 COUNTS 1 0 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 END ATOM\nM  V30 END CTAB\nM  END\n';

const { app, services } = (await build(t, 'inline', { WORKERS: '1' }))!;
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const admin = await ensureUser(services.store, 'fuzz-regressions@example.org', 'admin');
const auth = { authorization: `Bearer ${await issueToken(services.store, admin.id)}` };
const get = (url: string) => app.inject({ method: 'GET', url });
// Two molecules in the catalog and its structure-search index, so that searches reach RDKit.
const seeded = await app.inject({
  method: 'POST', url: '/api/molecules/mutate', headers: { ...auth, 'content-type': 'application/json' },
  payload: { mutate: [{ operation: 'create', attributes: { name: 'a', canonical_smiles: 'OC1=CC=CC=C1CCN' } }, { operation: 'create', attributes: { name: 'b', canonical_smiles: 'COc1c(O)cc2c3c1-c1ccccc1C[C@H]3NCC2' } }] },
});
if (seeded.statusCode !== 200) throw new Error(`seeding the catalog: ${seeded.statusCode} ${seeded.body}`);
await services.searchIndex.start();

t.test('structures without atoms are unreadable (422), not a C++ exception (500)', async (t) => {
  // shared/ops/standardize.tasks.ts tryParse, shared/chem/core/rdkit.ts parseMol,
  // shared/chem/hose/hose.ts hoseGraph: a molecule without atoms is refused before get_json.
  for (const blank of ['%20%20', '%20', '%09', '%0A', '%C2%A0']) {
    const res = await get(`/chem/errors?smiles=${blank}`);
    t.equal(res.statusCode, 422, `check_errors of ${blank}: 422 (the known case)`);
    t.match(res.json().detail, /Error reading SMILES string/);
  }
  t.equal((await get('/chem/errors?smiles=%20%20&fix=true')).statusCode, 422, 'with fix=true too');
  t.equal((await get('/chem/HOSEcode?smiles=%0A%C2%A0%0B&spheres=2')).statusCode, 422, 'HOSE codes of a blank SMILES');
  for (const block of [EMPTY_V2000, EMPTY_V9999]) {
    const std = await app.inject({ method: 'POST', url: '/chem/standardize', headers: { 'content-type': 'text/plain' }, payload: block });
    t.equal(std.statusCode, 422, 'standardize an atom-less molblock');
    const q = encodeURIComponent(block);
    for (const path of ['/tools/remove-circular-sugars', '/chem/descriptors', '/convert/canonicalsmiles']) {
      t.equal((await get(`${path}?smiles=${q}`)).statusCode, 422, `${path} of an atom-less molblock`);
    }
  }
  t.equal((await get('/convert/canonicalsmiles?smiles=CCO')).statusCode, 200, 'the thread answers as before');
});

t.test('a multipart body cut short is a 400, not a 500', async (t) => {
  // api/chem/routes.ts: the parser's own errors (no status) become 400.
  const pdf = corpus().pdfs.find((p) => p.name === 'two-pages.pdf')!.bytes;
  for (const noClose of [true, false]) {
    const [headers, body] = multipart([{ name: 'pdf_file', filename: 'paper.pdf', data: pdf }], 'fuzzb', { truncate: 120, noClose });
    const res = await app.inject({ method: 'POST', url: '/tools/extract_text', headers, payload: body });
    t.equal(res.statusCode, 400);
    t.match(res.json().detail, /Malformed multipart body/);
  }
});

t.test('relation operations nested thousands deep: 422, and nothing written', async (t) => {
  // api/catalog/mutate/mutate-parse.ts: MAX_RELATION_DEPTH; a stack overflow answered 500 before.
  const deep = (depth: number) => {
    let head = '';
    for (let i = 0; i < depth; i++) {
      head += i % 2
        ? `{"operation":"create","attributes":{"name":"Deep organism ${i}"},"relations":{"molecules":[`
        : `{"operation":"create","attributes":{"name":"deep ${i}"},"relations":{"organisms":[`;
    }
    return `{"mutate":[${head}{"operation":"create","attributes":{"name":"bottom"}}${']}}'.repeat(depth)}]}`;
  };
  for (const depth of [3000, 11]) {
    const res = await app.inject({ method: 'POST', url: '/api/molecules/mutate', headers: { ...auth, 'content-type': 'application/json' }, payload: deep(depth) });
    t.equal(res.statusCode, 422, `${depth} levels`);
    t.match(JSON.stringify(res.json().errors), /nested too deeply/);
  }
  t.equal(await services.store.count('molecules', {}), 2, 'no molecule written');
  t.equal(await services.store.count('organisms', {}), 0, 'no organism written');
});

t.test('like patterns with thousands of % runs: 422 (the regex compiler overflowed: 500)', async (t) => {
  // api/catalog/search/lomkit/like.ts MAX_LIKE_WILDCARDS, checked in api/catalog/search/lomkit/validate.ts.
  const search = (value: string, field = 'name') =>
    app.inject({ method: 'POST', url: '/api/molecules/search', headers: { ...auth, 'content-type': 'application/json' }, payload: { search: { filters: [{ field, operator: 'like', value }] } } });
  for (const value of ['%_'.repeat(5000), '%a'.repeat(10_000) + '%', '%_'.repeat(33)]) {
    const res = await search(value);
    t.equal(res.statusCode, 422, `${value.slice(0, 12)}... (${value.length} characters)`);
    t.match(res.json().errors['search.filters.0.value'][0], /more than 32 runs of %/);
  }
  t.equal((await search('%'.repeat(5000))).statusCode, 200, '5,000 % in a row are one run (the known many-% case)');
  t.equal((await search('%_'.repeat(32))).statusCode, 200, '32 runs pass');
  t.equal((await search('%'.repeat(2000), 'properties.alogp')).statusCode, 200, 'on a number field too');
});

t.test('recursive SMARTS nested 200 deep: 422, and the thread is not left broken', async (t) => {
  // shared/chem/core/rdkit.ts assertSmartsNesting: matching such a query left RDKit's module
  // throwing a C++ exception on later canonical SMILES, on that thread, for ever.
  const nested = '[$('.repeat(200) + 'C' + ')]'.repeat(200);
  const res = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'substructure', query: nested } });
  t.equal(res.statusCode, 422);
  t.match(JSON.stringify(res.json()), /SMARTS too deeply nested/);
  t.equal((await get(`/depict/2D?smiles=CCO&highlight=${encodeURIComponent('[$('.repeat(199) + 'C' + ')]'.repeat(199))}`)).statusCode, 422, 'as a depiction highlight');
  const after = await get('/convert/canonicalsmiles?smiles=COc1c(O)cc2c3c1-c1ccccc1C%5BC%40H%5D3NCC2');
  t.equal(after.statusCode, 200, 'canonical SMILES afterwards');
  t.equal(after.json(), 'COC1=C2C3=CC=CC=C3C[C@H]3NCCC(=C23)C=C1O');
  t.equal((await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'substructure', query: '[$([$([OH])])]' } })).statusCode, 200, 'a query nested 2 deep still works');
});

t.test('HEAD /mcp answers the stream headers and ends (it hung with no answer)', async (t) => {
  // api/mcp/routes.ts: the automatic HEAD route of the SSE GET opened a stream it never flushed.
  for (const path of ['/mcp', '/sse']) {
    const status = await new Promise<number | string>((resolve) => {
      const req = http.request(`${base}${path}`, { method: 'HEAD' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.setTimeout(5000, () => {
        req.destroy();
        resolve('no answer within 5 s');
      });
      req.on('error', (e) => resolve(String(e)));
      req.end();
    });
    t.equal(status, 200, `HEAD ${path}`);
  }
});

t.test('known case: a 1,000-atom polyene to /convert/smiles, 32 at once, over real connections', async (t) => {
  const polyene = 'C=C'.repeat(500);
  const answers = await Promise.all(Array.from({ length: 32 }, () => fetch(`${base}/convert/smiles?input_text=${polyene}`).then((r) => r.status, (e: Error) => `dropped: ${e.message}`)));
  t.same([...new Set(answers)], [422], 'every one a 422 (over the heavy-atom limit), none dropped');
});

t.test('an identifier with a lone UTF-16 surrogate is not found (it answered 500 "URI malformed")', async (t) => {
  // shared/extdb/pubchem.ts: encodeURIComponent threw on it when building the name lookup URL.
  for (const identifier of ['\udfff\u0013\n\u0016\u0016\udfff\u0000\n\u0011\ud83d\ude00', 'quercetin\ud800']) {
    const res = await app.inject({
      method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retrieve_extdb_smiles', arguments: { identifier } } }),
    });
    t.equal(res.statusCode, 200);
    const result = res.json().result as { isError?: boolean; content: { text: string }[] };
    t.notOk(result.isError, 'a result, not an error');
    t.match(JSON.parse(result.content[0].text), { canonical_smiles: null, success: false }, 'not found');
  }
});

t.test('a task that awaits is not taken down by a fault of the task behind it', async (t) => {
  // shared/threads/thread.ts: a thread runs one task at a time. Before, the second task handed to a
  // thread ran while the first awaited (a network lookup), and when it faulted RDKit's WASM the
  // pool terminated the thread with both: the lookup answered 500 "worker exited".
  const slow = createServer((_req, res) => {
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ PropertyTable: { Properties: [{ CID: 2519, SMILES: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' }] } }));
    }, 1500);
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => slow.close(() => r())));
  const { createPool, runTask } = await import('../../shared/threads/pool.ts');
  const pool = createPool(1, testThreadConfig({
    EXTDB_URL: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/rest/pug`,
    // A heavy-atom limit far above what RDKit's WASM stack takes, so that a long chain faults for real.
    MAX_HEAVY_ATOMS: 100_000,
  }));
  t.teardown(() => pool.destroy());
  const outcome = (p: Promise<unknown>) => p.then((v) => ({ ok: v }), (e: { status?: number; code?: string; detail?: unknown }) => ({ status: e.status, code: e.code, detail: e.detail }));
  const lookup = outcome(runTask(pool, 'extdb_lookup', { identifier: 'slowthing' }, { timeoutMs: 30_000 }));
  await new Promise((r) => setTimeout(r, 500)); // the lookup has started and awaits its answer
  const fault = outcome(runTask(pool, 'generate_canonical_smiles', { smiles: 'C'.repeat(2000), toolkit: 'rdkit' }, { timeoutMs: 30_000 }));
  t.match(await fault, { status: 422, code: 'wasm_fault' }, 'the faulting task: 422');
  t.match(await lookup, { ok: { canonical_smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', success: true } }, 'the lookup before it: answered');
});

t.test('requests the HTTP parser refuses are answered 4xx with a body, and never cost the next request its answer', async (t) => {
  // api/client-error.ts (issue 3): Fastify's default answer to an over-long URL or header block
  // (431) carried no `Connection: close` and the socket was destroyed at once, so a keep-alive
  // client sent its next request into a dead socket: a descriptor request with a long ring SMILES
  // and a `$where` catalog search were reset without any answer, ~10 ms after they left.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status?: number; connection?: string; body?: string; error?: string; socket?: unknown }>((resolve) => {
      const req = http.request(`${base}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, body: Buffer.concat(chunks).toString('utf8'), socket: req.socket }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: `response ${e.code ?? e.message}` }));
      });
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      req.end(body);
    });
  const ring = (n: number) => `/latest/chem/descriptors/multiple?smiles=${'C1'.repeat(n)},CCO`;
  const where = () => send('POST', '/api/citations/search', { ...auth, 'content-type': 'application/json' }, JSON.stringify({ search: { filters: [{ field: '$where', value: '1' }] } }));
  const detail = (body?: string) => {
    try {
      return (JSON.parse(body ?? '') as { detail?: unknown }).detail;
    } catch {
      return undefined;
    }
  };

  // Each shape, then the other, several times over one keep-alive connection (maxSockets 1).
  const seen: string[] = [];
  for (let round = 0; round < 3; round++) {
    const ok = await send('GET', '/convert/canonicalsmiles?smiles=CCO');
    t.equal(ok.status, 200, `round ${round}: a valid request first`);
    const long = await send('GET', ring(20_000));
    t.equal(long.status, 414, `round ${round}: a 40,000-character ring SMILES in the URL: 414`);
    t.match(detail(long.body), /URI Too Long.*16384/, 'its detail names the limit');
    t.equal(long.connection, 'close', 'and says the connection closes');
    const search = await where();
    t.equal(search.status, 422, `round ${round}: the $where search after it is answered (${search.error ?? 'no reset'})`);
    t.match(search.body, /The 'field' field is not valid/);
    const under = await send('GET', ring(1000));
    t.equal(under.status, 422, `round ${round}: a ring SMILES under the URL limit: 422`);
    t.match(detail(under.body), /heavy atoms/);
    const headers = await send('GET', '/health', { 'x-big': 'x'.repeat(20_000) });
    t.equal(headers.status, 431, `round ${round}: headers over 16 KB: 431`);
    t.match(detail(headers.body), /Request Header Fields Too Large/);
    const after = await send('GET', '/convert/canonicalsmiles?smiles=CCO');
    t.equal(after.status, 200, `round ${round}: the request after the 431 is answered (${after.error ?? 'no reset'})`);
    seen.push(...[ok, long, search, under, headers, after].filter((a) => a.error).map((a) => a.error!));
  }
  t.same(seen, [], 'no connection closed without an answer');

  // Pipelined behind a request still running on the same connection: the answers keep their order.
  const { connect } = await import('node:net');
  const raw = await new Promise<string>((resolve) => {
    const s = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => resolve(got));
    // Written, not ended: a client that half-closes gets nothing from Node's server anyway.
    s.on('connect', () => s.write(`GET /convert/canonicalsmiles?smiles=CCO HTTP/1.1\r\nHost: x\r\n\r\nGET ${ring(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
  });
  // (Pipelined, the refused request does not start the packet the parser was reading: 431, not 414.)
  t.match(raw, /^HTTP\/1\.1 200 [\s\S]*\r\n\r\n"CCO"HTTP\/1\.1 431 [\s\S]*Connection: close\r\n\r\n\{"detail":"Request Header Fields Too Large/, 'pipelined: 200 first, then the 431');

  // Malformed HTTP: 400 with a body.
  const bad = await new Promise<string>((resolve) => {
    const s = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => resolve(got));
    s.on('connect', () => s.write('GET /health HTTP/1.1\r\nHost: x\r\nbad header line\r\n\r\n'));
  });
  t.match(bad, /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*Connection: close\r\n\r\n\{"detail":"Bad Request: malformed HTTP request/, 'a header line without a colon: 400 with a body');
});
