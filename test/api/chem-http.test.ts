/**
 * Every registered operation through HTTP in both runner modes: a valid call answers with the
 * declared media type (quick: 200; long: 202 then a job that succeeds) and the value its registry
 * example expects from an independent reference (test/api/expected.ts), a JSON answer (a long
 * job's result) fits the operation's declared answer schema (test/api/answers.ts), an unreadable structure
 * is a 422 naming it, a bad parameter is FastAPI's 422 list, and /latest serves the same answer.
 * The external compound database is a recording of PubChem (test/extdb/fake-pugrest.ts).
 */
import t from 'tap';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { OPERATIONS } from '../../shared/ops/index.ts';
import type { OpDef } from '../../shared/ops/types.ts';
import { build, MODES } from '../helpers/app.ts';
import { startFakePugRest } from '../extdb/fake-pugrest.ts';
import { answerOf, mismatches } from './expected.ts';
import { answersJson, answerViolations } from './answers.ts';
import { multipart, samplePdf, SAMPLES, type Sample } from './samples.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const pdf = await samplePdf();
const pubchem = await startFakePugRest();
t.teardown(() => pubchem.close());

/** The answer of `op` against its sample's expected value (JSON values as parsed, other answers as text). */
function checkExpected(t: Same, op: OpDef, s: Sample, answer: unknown) {
  t.same(mismatches(s.expected!.value, answer), [], `${op.name}: the expected answer (${s.expected!.source})`);
}

/** A JSON answer against the operation's declared answer schema (the shape the OpenAPI document gives). */
function checkShape(t: Same, op: OpDef, answer: unknown) {
  t.same(answerViolations(op, answer), [], `${op.name}: the declared answer schema`);
}

async function call(app: FastifyInstance, op: OpDef, s: Sample, prefix = '', extra: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const query: Record<string, string> = { ...s.query, ...extra };
  // Path parameters ({jobid}) come from the query of the sample.
  const url = `${prefix}${op.path}`.replace(/\{(\w+)\}/g, (_m, k: string) => {
    const v = query[k];
    delete query[k];
    return encodeURIComponent(v);
  });
  if (s.pdf) return app.inject({ method: 'POST', url, query, ...multipart(pdf) });
  if (s.text !== undefined) return app.inject({ method: 'POST', url, query, payload: s.text, headers: { 'content-type': 'text/plain' } });
  return app.inject({ method: op.method, url, query });
}

async function poll(app: FastifyInstance, url: string, done: (b: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const path = new URL(url, 'http://localhost').pathname;
  for (let i = 0; i < 600; i++) {
    const body = (await app.inject({ url: path })).json() as Record<string, unknown>;
    if (done(body)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never finished`);
}

function checkMedia(t: Tap, op: OpDef, type: string | undefined, body: string) {
  const expected = op.output;
  if (op.name === 'generate_descriptors') t.match(type, /application\/json/);
  else t.match(type, new RegExp(expected.replace('+', '\\+')), `${op.name}: ${expected}`);
  if (expected === 'application/json') {
    t.doesNotThrow(() => JSON.parse(body), `${op.name}: JSON body`);
    // Exactly the original's header (FastAPI sends no charset with JSON): clients compare it.
    t.match(type, /^application\/json$/, `${op.name}: Content-Type application/json, no charset`);
  }
  if (expected === 'image/svg+xml') t.match(body, /<svg[\s\S]*<\/svg>/);
  if (expected === 'text/html') t.match(body, /<html[\s\S]*<\/html>/i);
  if (expected === 'text/plain') t.match(body, /M {2}END/);
}
type Tap = Pick<typeof t, 'match' | 'doesNotThrow'>;
type Same = Pick<typeof t, 'same'>;

t.test('every registered operation has a sample call with an expected answer', async (t) => {
  for (const op of OPERATIONS) {
    t.ok(SAMPLES[op.name], `${op.name} has a sample`);
    t.ok(SAMPLES[op.name]?.expected?.source, `${op.name}: its expected answer names its reference`);
  }
});

for (const mode of MODES) {
  t.test(`${mode} mode`, async (t) => {
    const built = await build(t, mode, { EXTDB_URL: pubchem.base, EXTDB_TIMEOUT_MS: '2000' });
    if (!built) return skipAll(t, NO_REDIS);
    const { app } = built;
    const jobsByOp = new Map<string, string>();

    for (const op of OPERATIONS) {
      const s = SAMPLES[op.name];
      if (!s || s.needsJobOf) continue;
      t.test(op.name, async (t) => {
        const res = await call(app, op, s);
        if (res.statusCode === 202) {
          const sub = res.json();
          t.ok(op.mode === 'long' || op.successStatus === 202, '202 only for long operations and submissions');
          if (op.handler === 'api') {
            jobsByOp.set(op.name, sub.id);
            checkExpected(t, op, s, sub);
            checkShape(t, op, sub);
            return;
          }
          t.match(sub, { job_id: String, status: /queued|running|succeeded/, status_url: /\/jobs\// });
          t.equal(res.headers.location, sub.status_url);
          const done = await poll(app, sub.status_url, (b) => b.status === 'succeeded' || b.status === 'failed');
          t.equal(done.status, 'succeeded', JSON.stringify(done.error));
          t.equal(done.op, op.name);
          checkExpected(t, op, s, done.result);
          checkShape(t, op, done.result);
          return;
        }
        t.equal(res.statusCode, 200, res.body.slice(0, 300));
        checkMedia(t, op, res.headers['content-type'] as string, res.body);
        checkExpected(t, op, s, answerOf(res.headers['content-type'] as string, res.body));
        if (answersJson(op) && /^application\/json/.test(String(res.headers['content-type']))) checkShape(t, op, res.json());
        if (op.mode === 'quick' && op.method === 'GET') {
          const latest = await call(app, op, s, '/latest');
          t.equal(latest.statusCode, 200);
          t.equal(latest.body, res.body, '/latest answers the same');
        }
      });
    }

    t.test('retrieve_chemclass_results follows its submission', { skip: !OPERATIONS.some((o) => o.name === 'retrieve_chemclass_results') }, async (t) => {
      const id = jobsByOp.get('generate_chemclass_classifications');
      const s = SAMPLES.retrieve_chemclass_results;
      t.ok(id, 'a classification was submitted');
      t.equal(s.query?.jobid, id, 'the example asks for the job of the submission example');
      await poll(app, `/chem/chemclass/${id}/result`, (b) => b.classification_status === 'Done' || b.classification_status === 'Failed');
      const op = OPERATIONS.find((o) => o.name === 'retrieve_chemclass_results')!;
      const res = await call(app, op, s);
      t.equal(res.statusCode, 200);
      checkExpected(t, op, s, res.json());
      checkShape(t, op, res.json());
    });

    t.test('unreadable structures are a 422 that names the input (generate_selfies: 400, as the original)', async (t) => {
      for (const op of OPERATIONS) {
        const s = SAMPLES[op.name];
        if (!s?.query?.smiles || op.mode === 'long' || op.handler === 'api') continue;
        const bad = s.query.smiles.includes(',') ? 'CCO,C1CC(C' : 'C1CC(C';
        const res = await call(app, op, { query: { ...s.query, smiles: bad } });
        t.equal(res.statusCode, op.name === 'generate_selfies' ? 400 : 422, `${op.name}: ${res.statusCode}`);
        t.match(JSON.stringify(res.json().detail), /C1CC\(C/, `${op.name}: names the input`);
      }
    });

    t.test('bad parameters are a FastAPI 422 list', async (t) => {
      for (const op of OPERATIONS) {
        const s = SAMPLES[op.name];
        if (!s?.query || s.text !== undefined || s.pdf || op.handler === 'api') continue;
        const hasToolkit = 'toolkit' in op.args.shape;
        const res = hasToolkit ? await call(app, op, s, '', { toolkit: 'nosuchkit' }) : await app.inject({ method: op.method, url: op.path });
        t.equal(res.statusCode, 422, op.name);
        const [issue] = res.json().detail;
        if (hasToolkit) t.match(issue, { type: 'enum', loc: ['query', 'toolkit'], msg: /^Input should be '\w+'/, input: 'nosuchkit' }, op.name);
        else t.match(issue, { type: 'missing', msg: 'Field required' }, op.name);
      }
    });

    t.test('async=true turns a quick operation into a job', async (t) => {
      const res = await app.inject({ url: '/latest/convert/canonicalsmiles?smiles=OC(=O)c1ccccc1O&async=true' });
      t.equal(res.statusCode, 202);
      const sub = res.json();
      t.match(sub.status_url, new RegExp(`/latest/jobs/${sub.job_id}$`));
      const done = await poll(app, sub.status_url, (b) => b.status === 'succeeded');
      t.equal(done.result, 'O=C(O)C1=CC=CC=C1O');
      t.equal((await app.inject({ url: `/jobs/${sub.job_id}` })).json().result, 'O=C(O)C1=CC=CC=C1O', 'unprefixed job route');
    });

    t.test('a long job can be cancelled over HTTP', async (t) => {
      const q = 'molecular_formula=C10H16O2&max_heavy_atoms=12&planar=false&allow_triple_bonds=true&bad_substructures=none&allow_3_rings=true&allow_4_cycles=true';
      const sub = (await app.inject({ url: `/tools/generate-structures?${q}` })).json();
      await poll(app, sub.status_url, (b) => b.status === 'running');
      const del = await app.inject({ method: 'DELETE', url: `/jobs/${sub.job_id}` });
      t.equal(del.statusCode, 200);
      const done = await poll(app, sub.status_url, (b) => b.status === 'cancelled');
      t.equal(done.status, 'cancelled');
      t.equal((await app.inject({ url: '/jobs/no-such-job' })).statusCode, 404);
      t.equal((await app.inject({ method: 'DELETE', url: '/jobs/no-such-job' })).statusCode, 404);
    });
  });
}
