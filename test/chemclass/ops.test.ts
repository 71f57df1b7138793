/**
 * The two classification operations through their api handlers and an inline job runner whose
 * executor calls the worker tasks in this process: submission answer, reuse of the job for the
 * same structure, status mapping (In Queue, Processing, Done, Failed), 404s, and forwarding to a
 * ClassyFire-compatible service (a fake one on 127.0.0.1 started here) when CHEMCLASS_URL is set.
 */
import type { TaskTable } from '../../shared/ops/types.ts';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { loadConfig, threadConfig, type ThreadConfig } from '../../shared/config.ts';
import { AppError } from '../../shared/errors.ts';
import type { TaskExecutor } from '../../shared/jobs/executor.ts';
import { createInlineRunner } from '../../shared/jobs/inline.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import { classifyOps } from '../../shared/ops/classify.ts';
import { retrieveClassification, submitClassification } from '../../api/chem/handlers/classify.ts';
import { classifyTasks } from '../../shared/ops/classify.tasks.ts';
import { API_HANDLERS } from '../../api/chem/handlers/index.ts';
import type { ApiContext } from '../../api/chem/context.ts';

const rdkit = await loadRDKit();
const config = loadConfig();
/** The configuration the tasks get: this process's, without a classification service unless a test names one. */
const threadCfg = (CHEMCLASS_URL?: string): ThreadConfig => ({ ...threadConfig(config), CHEMCLASS_URL });
const QUERCETIN = 'O=c1c(O)c(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12';
const QUERCETIN_KEY = 'REFJWTPEDVJJIY-UHFFFAOYSA-N';

/** Executor running the tasks here; `gate` (when given) holds chemclass_classify until released. */
function executor(gate?: Promise<void>, calls: string[] = []): TaskExecutor {
  return async (task, args, hooks) => {
    calls.push(task);
    if (task === 'chemclass_classify' && gate) await gate;
    hooks.onStart?.();
    return (classifyTasks as TaskTable)[task](args, { rdkit, signal: hooks.signal ?? new AbortController().signal, progress: hooks.onProgress ?? (() => {}), config: threadCfg() });
  };
}

function context(execute: TaskExecutor): ApiContext & { runner: JobRunner } {
  const runner = createInlineRunner({ execute, timeouts: { quickMs: 30_000, longMs: 60_000, waitMs: 30_000, resultTtlSeconds: 60 } });
  return { runner, config, baseUrl: 'http://test.local', prefix: '/latest' };
}

async function status(t: { teardown: (fn: () => unknown) => void }, ctx: ApiContext & { runner: JobRunner }, id: string) {
  t.teardown(() => ctx.runner.close());
  await ctx.runner.wait(id, 30_000);
  return retrieveClassification({ jobid: id }, ctx);
}

t.test('registry entries', async (t) => {
  const [submit, retrieve] = classifyOps;
  t.equal(submit.name, 'generate_chemclass_classifications');
  t.equal(submit.path, '/chem/chemclass/classify');
  t.equal(submit.mode, 'long');
  t.equal(submit.successStatus, 202);
  t.equal(retrieve.name, 'retrieve_chemclass_results');
  t.equal(retrieve.path, '/chem/chemclass/{jobid}/result');
  t.ok(submit.handler === 'api' && retrieve.handler === 'api', 'both run in the api process');
  t.ok(typeof API_HANDLERS[submit.name] === 'function' && typeof API_HANDLERS[retrieve.name] === 'function', 'both have their api-side handler');
  t.same(Object.keys(submit.args.shape), ['smiles', 'auto_detect'], 'the structure, and the original\'s auto_detect (CM 3.11)');
});

t.test('submit, reuse, retrieve', async (t) => {
  const calls: string[] = [];
  const ctx = context(executor(undefined, calls));
  const a = await submitClassification({ smiles: QUERCETIN, auto_detect: false }, ctx);
  t.equal(a.id, `chemclass-${QUERCETIN_KEY}`, 'the job is keyed by the InChIKey');
  t.equal(a.inchikey, QUERCETIN_KEY);
  t.equal(a.status_url, `http://test.local/latest/chem/chemclass/chemclass-${QUERCETIN_KEY}/result`);
  t.equal(a.query_input, QUERCETIN);
  t.equal(a.query_type, 'STRUCTURE');
  const done = await status(t, ctx, a.id);
  t.equal(done.classification_status, 'Done');
  t.equal(done.number_of_elements, 1);
  const entity = done.entities[0] as { identifier: string; class: { name: string }; npclassifier: { superclass: string; class: string } };
  t.equal(entity.identifier, 'Q1');
  t.equal(entity.class.name, 'Flavonoids');
  t.same([entity.npclassifier.superclass, entity.npclassifier.class], ['Flavonoids', 'Flavonols']);
  t.same(done.invalid_entities, []);
  // The same structure written differently: same InChIKey, same job, no second classification.
  const b = await submitClassification({ smiles: 'Oc1cc(O)c2c(c1)oc(-c1ccc(O)c(O)c1)c(O)c2=O', auto_detect: false }, ctx);
  t.equal(b.id, a.id, 'second submission reuses the job');
  t.equal(b.status, 'Done', 'and reports it finished');
  t.equal(calls.filter((c) => c === 'chemclass_classify').length, 1, 'classified once');
});

t.test('queued and running jobs', async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const ctx = context(executor(gate));
  t.teardown(() => ctx.runner.close());
  const a = await submitClassification({ smiles: 'CCO', auto_detect: false }, ctx);
  t.equal((await retrieveClassification({ jobid: a.id }, ctx)).classification_status, 'In Queue');
  release();
  await ctx.runner.wait(a.id, 30_000);
  t.equal((await retrieveClassification({ jobid: a.id }, ctx)).classification_status, 'Done');
});

t.test('processing maps to Processing', async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const execute: TaskExecutor = async (task, args, hooks) => {
    hooks.onStart?.();
    if (task === 'chemclass_classify') await gate;
    return (classifyTasks as TaskTable)[task](args, { rdkit, signal: new AbortController().signal, progress: () => {}, config: threadCfg() });
  };
  const ctx = context(execute);
  t.teardown(() => ctx.runner.close());
  const a = await submitClassification({ smiles: 'CCN', auto_detect: false }, ctx);
  t.equal((await retrieveClassification({ jobid: a.id }, ctx)).classification_status, 'Processing');
  release();
});

t.test('a failed job is Failed with its error', async (t) => {
  const execute: TaskExecutor = async (task, args, hooks) => {
    hooks.onStart?.();
    if (task === 'chemclass_classify') throw new AppError(503, 'Classification service http://x unreachable: ECONNREFUSED (4 attempts)', 'unavailable');
    return (classifyTasks as TaskTable)[task](args, { rdkit, signal: new AbortController().signal, progress: () => {}, config: threadCfg() });
  };
  const ctx = context(execute);
  const a = await submitClassification({ smiles: 'CCCl', auto_detect: false }, ctx);
  const r = await status(t, ctx, a.id);
  t.equal(r.classification_status, 'Failed');
  t.same(r.entities, []);
  t.match(r.invalid_entities, [{ identifier: 'Q1', report: [/unreachable/] }]);
  t.match(r.error, { status: 503, detail: /unreachable/ });
});

t.test('bad input and unknown ids', async (t) => {
  const ctx = context(executor());
  t.teardown(() => ctx.runner.close());
  await t.rejects(submitClassification({ smiles: 'C1CC(', auto_detect: false }, ctx), { status: 422, message: /C1CC\(/ }, 'unreadable SMILES: 422 naming it, at submission');
  await t.rejects(retrieveClassification({ jobid: 'chemclass-NOPE' }, ctx), { status: 404, message: /chemclass-NOPE/ });
  await t.rejects(retrieveClassification({ jobid: 'not-a-classification' }, ctx), { status: 404, message: /not-a-classification/ });
  // A job of another operation is not a classification.
  const other = await ctx.runner.submit('something_else', 'chemclass_key', { smiles: 'C' }, { jobId: 'chemclass-OTHER' });
  await ctx.runner.wait(other.id, 10_000);
  await t.rejects(retrieveClassification({ jobid: other.id }, ctx), { status: 404, message: /No classification job/ });
});

/** A fake ClassyFire: POST /queries/ answers an id; GET answers Processing once, then Done. */
function fakeClassyfire(): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  let polls = 0;
  const body = (req: IncomingMessage) => new Promise<string>((r) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => r(s));
  });
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && req.url === '/queries/?format=json') {
      const q = JSON.parse(await body(req));
      res.end(JSON.stringify({ id: 4242, label: q.label, query_input: q.query_input, query_type: q.query_type }));
    } else if (req.method === 'GET' && req.url === '/queries/4242?format=json') {
      polls++;
      res.end(JSON.stringify(polls < 2
        ? { id: 4242, classification_status: 'Processing', entities: [], invalid_entities: [] }
        : { id: 4242, classification_status: 'Done', entities: [{ identifier: 'Q1', class: { name: 'Imidazopyrimidines' } }], invalid_entities: [] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests });
  }));
}

t.test('forwarding to CHEMCLASS_URL', async (t) => {
  const fake = await fakeClassyfire();
  t.teardown(() => fake.server.close());
  const progress: unknown[] = [];
  const r = await classifyTasks.chemclass_classify({ smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', inchikey: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N' },
    { rdkit, signal: new AbortController().signal, progress: (p: unknown) => progress.push(p), config: threadCfg(fake.url) }) as { classifier: string; entities: { class: { name: string } }[] };
  t.equal(r.classifier, fake.url);
  t.equal(r.entities[0].class.name, 'Imidazopyrimidines', 'the service answer is passed through');
  t.same(fake.requests, ['POST /queries/?format=json', 'GET /queries/4242?format=json', 'GET /queries/4242?format=json']);
  t.match(progress, [{ stage: 'submitted', remote_id: 4242 }, { remote_status: 'Processing' }, { remote_status: 'Done' }]);
});

t.test('an unreachable CHEMCLASS_URL is a 503 naming the service', async (t) => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((r) => closed.close(() => r()));
  const t0 = Date.now();
  await t.rejects(
    Promise.resolve(classifyTasks.chemclass_classify({ smiles: 'CCO', inchikey: 'x' }, { rdkit, signal: new AbortController().signal, progress: () => {}, config: threadCfg(url) })),
    { status: 503, message: new RegExp(`Classification service ${url.replace(/\./g, '\\.')} unreachable: ECONNREFUSED \\(4 attempts\\)`) },
  );
  t.ok(Date.now() - t0 < 15_000, 'gives up after the retries, no hang');
});
