/**
 * The service around the operations: health, metrics, OpenAPI and docs, the root redirect, error
 * shapes, limits, the offline 3D viewer script, and a chemistry thread killed mid-task.
 */
import t from 'tap';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { build } from '../helpers/app.ts';

const built = (await build(t, 'inline', { RELEASE_VERSION: '9.9.9-test', BODY_LIMIT: '2048' }))!;
const { app, services } = built;

t.test('health on every documented path', async (t) => {
  const health = await app.inject({ url: '/health' });
  t.equal(health.statusCode, 200);
  t.match(health.json(), { status: 'OK', version: '9.9.9-test', jobs: 'inline', store: 'embedded' }, '/health: natprod\'s status');
  // The original's router paths answer exactly {"status": "OK"} (its tests compare the whole body).
  for (const url of ['/latest/chem/health', '/chem/health', '/convert/health', '/latest/tools/health', '/latest/chem', '/latest/chem/', '/v1/depict']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 200, url);
    t.same(res.json(), { status: 'OK' }, url);
  }
});

t.test('root redirects to HOMEPAGE_URL; docs and OpenAPI are served', async (t) => {
  // The original (tests/test_main.py): `/` leads to HOMEPAGE_URL, by default /latest/docs, which
  // answers 200 text/html; charset=utf-8.
  const root = await app.inject({ url: '/' });
  t.equal(root.statusCode, 307);
  t.equal(root.headers.location, '/latest/docs', 'the default HOMEPAGE_URL is the original\'s');
  for (const url of ['/latest/docs', '/latest/docs/', '/docs', '/docs/']) {
    const page = await app.inject({ url });
    t.equal(page.statusCode, 200, url);
    t.equal(page.headers['content-type'], 'text/html; charset=utf-8', `${url}: HTML`);
    // Every stylesheet, icon and script the page names loads (relative ones against the page's URL).
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, `http://x${url}`).pathname);
    t.ok(assets.length >= 5, `${url}: names its assets`);
    for (const a of assets) t.equal((await app.inject({ url: a })).statusCode, 200, `${url}: ${a}`);
  }
  // Swagger UI reads the document from ./json next to the page.
  t.equal((await app.inject({ url: '/latest/docs/json' })).json().info.version, '9.9.9-test', '/latest/docs/json');
  const configured = (await build(t, 'inline', { HOMEPAGE_URL: 'https://docs.example.org/' }))!;
  t.equal((await configured.app.inject({ url: '/' })).headers.location, 'https://docs.example.org/', 'HOMEPAGE_URL set: `/` leads there');
  const doc = (await app.inject({ url: '/openapi.json' })).json();
  t.equal(doc.info.version, '9.9.9-test');
  const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
  for (const op of OPERATIONS) t.ok(ids.includes(op.name), `OpenAPI lists ${op.name}`);
  const stereo = doc.paths['/chem/stereoisomers'].get;
  t.match(stereo.parameters.find((p: { name: string }) => p.name === 'smiles'), { in: 'query', required: true });
});

t.test('metrics: HTTP by route template and status class, jobs by op and outcome, pool and queue gauges', async (t) => {
  await app.inject({ url: '/convert/canonicalsmiles?smiles=CCO' });
  await app.inject({ url: '/convert/canonicalsmiles?smiles=C1CC(' });
  const text = (await app.inject({ url: '/metrics' })).body;
  t.match(text, /http_requests_total\{method="GET",route="\/convert\/canonicalsmiles",status="2xx",role="api"\} \d/);
  t.match(text, /http_requests_total\{method="GET",route="\/convert\/canonicalsmiles",status="4xx",role="api"\} \d/);
  t.match(text, /natprod_jobs_total\{op="generate_canonical_smiles",outcome="succeeded",role="api"\} \d/);
  t.match(text, /natprod_jobs_total\{op="generate_canonical_smiles",outcome="failed",role="api"\} \d/);
  t.match(text, /natprod_job_duration_seconds_bucket/);
  t.match(text, /natprod_pool_utilization\{role="api"\}/);
  t.match(text, /natprod_queue_waiting\{queue="inline",role="api"\}/);
  t.match(text, /natprod_build_info\{version="9.9.9-test",role="api"\} 1/);
  t.match(text, /process_resident_memory_bytes/);
  t.notMatch(text, /CCO/, 'no input ever becomes a label');
});

t.test('error shapes', async (t) => {
  const nf = await app.inject({ url: '/convert/nothing' });
  t.equal(nf.statusCode, 404);
  t.same(nf.json(), { detail: 'Not Found' });
  const big = await app.inject({ method: 'POST', url: '/chem/all_filters', payload: 'C'.repeat(4096), headers: { 'content-type': 'text/plain' } });
  t.equal(big.statusCode, 413, 'body over BODY_LIMIT');
  t.match(big.json(), { detail: String });
  const badJson = await app.inject({ method: 'POST', url: '/mcp', payload: '{not json', headers: { 'content-type': 'application/json' } });
  t.equal(badJson.statusCode, 400);
});

t.test('the 3D viewer script is served locally', async (t) => {
  const res = await app.inject({ url: '/static/3Dmol-min.js' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /javascript/);
  t.ok(res.body.length > 100_000 && res.body.includes('$3Dmol'));
});

t.test('a chemistry thread killed mid-task: 500 naming the job, and the pool replaces the thread', async (t) => {
  const q = 'molecular_formula=C10H16O2&max_heavy_atoms=12&planar=false&allow_triple_bonds=true&bad_substructures=none&allow_3_rings=true&allow_4_cycles=true';
  const sub = (await app.inject({ url: `/tools/generate-structures?${q}` })).json();
  for (let i = 0; i < 200 && (await services.runner.get(sub.job_id))?.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 50));
  await services.pool!.threads[0].terminate();
  let rec;
  for (let i = 0; i < 200; i++) {
    rec = await services.runner.get(sub.job_id);
    if (rec?.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.match(rec, { status: 'failed', error: { status: 500, code: 'worker_crash' } });
  const res = await app.inject({ url: `/jobs/${sub.job_id}` });
  t.match(res.json().error.detail, /generate_structures/);
  const after = await app.inject({ url: '/convert/canonicalsmiles?smiles=OCC' });
  t.equal(after.statusCode, 200, 'a new thread answers');
  t.equal(after.json(), 'CCO');
});

t.test('uploads: multipart field, size limit, file type', async (t) => {
  const { multipart, samplePdf } = await import('./samples.ts');
  const pdf = await samplePdf();
  const ok = await app.inject({ method: 'POST', url: '/tools/extract_text', ...multipart(pdf) });
  t.equal(ok.statusCode, 202);
  const notPdf = await app.inject({ method: 'POST', url: '/tools/extract_text', ...multipart(Buffer.from('just some text'), 'notes.txt') });
  t.equal(notPdf.statusCode, 400);
  t.match(notPdf.json().detail, /must be a PDF.*notes\.txt/);
  const wrongField = multipart(pdf);
  wrongField.payload = Buffer.from(wrongField.payload.toString('latin1').replace('name="pdf_file"', 'name="file"'), 'latin1');
  const wf = await app.inject({ method: 'POST', url: '/tools/extract_text', ...wrongField });
  t.equal(wf.statusCode, 422);
  t.match(wf.json().detail, /pdf_file/);
  const none = await app.inject({ method: 'POST', url: '/tools/extract_text', payload: {} });
  t.equal(none.statusCode, 422, 'no file at all');
});

t.test('uploads over UPLOAD_LIMIT are refused with 413', async (t) => {
  const small = (await build(t, 'inline', { UPLOAD_LIMIT: '2048' }))!;
  const { multipart } = await import('./samples.ts');
  const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10_000, 32)]);
  const res = await small.app.inject({ method: 'POST', url: '/tools/extract_json', ...multipart(big) });
  t.equal(res.statusCode, 413);
  t.match(res.json(), { detail: String });
});
