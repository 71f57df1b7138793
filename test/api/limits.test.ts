/**
 * Limits per client, in both modes (bullmq: counters and slots in Redis): each budget answers 429
 * with Retry-After and its family's body once spent; budgets are per valid token, else per IP (an
 * invented token counts as its IP); health, metrics and docs are never counted; the cap on
 * concurrent long jobs refuses a client's third job (over REST and MCP) and frees a slot when a job
 * is cancelled.
 * Two api replicas on one Redis share counters and slots.
 */
import t from 'tap';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';
import { build, MODES, type Mode } from '../helpers/app.ts';
import { testPrefix } from '../helpers/redis.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const QUICK = '/convert/canonicalsmiles?smiles=CCO';
// About 7 s on one thread: still queued or running while the test submits more.
const SLOW = '/tools/generate-structures?molecular_formula=C12H18&max_heavy_atoms=14&limit=1';

async function tokenFor(store: CatalogStore, email: string, role: 'reader' | 'curator' | 'admin' = 'reader') {
  const user = await ensureUser(store, email, role);
  return `Bearer ${await issueToken(store, user.id as number)}`;
}

async function spend(app: FastifyInstance, n: number, req: InjectOptions) {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) codes.push((await app.inject(req)).statusCode);
  return codes;
}

function refusedLike(t: Tap, res: LightMyRequestResponse, body: 'detail' | 'message', what: string) {
  t.equal(res.statusCode, 429, `${what}: 429`);
  const retry = Number(res.headers['retry-after']);
  t.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `${what}: Retry-After in seconds (${res.headers['retry-after']})`);
  t.equal(res.headers['x-ratelimit-remaining'], '0', `${what}: nothing remaining`);
  t.match(res.json(), { [body]: String }, `${what}: {${body}} body`);
}
type Tap = Pick<typeof t, 'equal' | 'ok' | 'match' | 'comment' | 'pass'>;

for (const mode of MODES) {
  t.test(`${mode}: request budgets`, async (t) => {
    const built = await build(t, mode, { RATE_LIMIT_QUICK: '3', RATE_LIMIT_LONG: '2', RATE_LIMIT_WRITES: '2', LONG_JOBS_PER_CLIENT: '0', RATE_LIMIT_EXEMPT: '' });
    if (!built) return skip(t, mode);
    const { app, services } = built;
    const alice = await tokenFor(services.store, 'alice@lab.org');
    const bob = await tokenFor(services.store, 'bob@lab.org');

    t.test('quick: the fourth call in the window is refused, {detail} + Retry-After', async (t) => {
      t.same(await spend(app, 3, { url: QUICK, headers: { authorization: alice } }), [200, 200, 200]);
      refusedLike(t, await app.inject({ url: QUICK, headers: { authorization: alice } }), 'detail', 'quick');
      t.equal((await app.inject({ url: '/latest/chem/descriptors?smiles=CCO', headers: { authorization: alice } })).statusCode, 429, 'one budget across operations and prefixes');
    });

    t.test('per token: another token and the anonymous IP keep their own budgets', async (t) => {
      t.equal((await app.inject({ url: QUICK, headers: { authorization: bob } })).statusCode, 200, 'bob');
      t.equal((await app.inject({ url: QUICK })).statusCode, 200, 'anonymous (IP)');
      const invented = { authorization: 'Bearer 999|NotARealTokenAtAll' };
      t.same(await spend(app, 2, { url: QUICK, headers: invented }), [200, 200], 'an invented token spends the IP budget');
      t.equal((await app.inject({ url: QUICK, headers: invented })).statusCode, 429, 'and is refused with it');
      t.equal((await app.inject({ url: QUICK })).statusCode, 429, 'the IP is spent');
    });

    t.test('never counted: health, metrics, docs, OpenAPI, viewer script', async (t) => {
      for (const url of ['/health', '/latest/chem/health', '/metrics', '/docs/', '/openapi.json', '/static/3Dmol-min.js']) {
        t.same(await spend(app, 5, { url }), [200, 200, 200, 200, 200], url);
      }
    });

    t.test('long: long operations and ?async=true share a budget of their own', async (t) => {
      const h = { authorization: bob };
      t.equal((await app.inject({ url: `${QUICK}&async=true`, headers: h })).statusCode, 202, 'async quick call');
      t.equal((await app.inject({ url: '/tools/generate-structures?molecular_formula=C6H6', headers: h })).statusCode, 202, 'long operation');
      refusedLike(t, await app.inject({ url: `${QUICK}&async=1`, headers: h }), 'detail', 'long');
      t.equal((await app.inject({ url: QUICK, headers: h })).statusCode, 200, 'quick budget unaffected');
    });

    t.test('writes: catalog login, mutate and delete, {message} + Retry-After', async (t) => {
      const login = { method: 'POST' as const, url: '/api/auth/login', payload: { email: 'nobody@lab.org', password: 'x' } };
      t.same(await spend(app, 2, login), [401, 401]);
      refusedLike(t, await app.inject(login), 'message', 'login');
      t.same((await app.inject(login)).json(), { message: 'Too Many Attempts.' });
      const curator = await tokenFor(services.store, 'carol@lab.org', 'curator');
      const mutate = { method: 'POST' as const, url: '/api/citations/mutate', headers: { authorization: curator }, payload: { mutate: [] } };
      await spend(app, 2, mutate);
      refusedLike(t, await app.inject({ ...mutate, method: 'DELETE', url: '/api/citations', payload: { resources: [1] } }), 'message', 'delete');
      const search = await app.inject({ method: 'POST', url: '/api/citations/search', headers: { authorization: curator }, payload: {} });
      t.equal(search.statusCode, 200, 'a search is a read, not a write');
    });
  });

  t.test(`${mode}: concurrent long jobs per client`, async (t) => {
    const built = await build(t, mode, { LONG_JOBS_PER_CLIENT: '2', RATE_LIMIT_EXEMPT: '' });
    if (!built) return skip(t, mode);
    const { app, services } = built;
    const alice = { authorization: await tokenFor(services.store, 'alice@lab.org') };
    const ids: string[] = [];
    t.teardown(async () => {
      for (const id of ids) await services.runner.cancel(id).catch(() => {});
    });
    const submit = async (headers: Record<string, string> = alice) => app.inject({ url: SLOW, headers });

    for (let i = 0; i < 2; i++) {
      const res = await submit();
      t.equal(res.statusCode, 202, `job ${i + 1} accepted`);
      ids.push(res.json().job_id);
    }
    const third = await submit();
    t.equal(third.statusCode, 429, 'third job refused while two are queued or running');
    t.equal(third.headers['retry-after'], '30', 'Retry-After');
    t.match(third.json(), { detail: /at most 2 may be queued or running/ });
    const other = await submit({});
    t.equal(other.statusCode, 202, 'another client (the IP) is not affected');
    ids.push(other.json().job_id);

    const cancelled = await app.inject({ method: 'DELETE', url: `/jobs/${ids[1]}` });
    t.equal(cancelled.json().status, 'cancelled', 'cancel one of them');
    const again = await submit();
    t.equal(again.statusCode, 202, 'a cancelled job frees its slot');
    ids.push(again.json().job_id);
    t.equal((await submit()).statusCode, 429, 'and the cap holds again');

    const mcp = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...alice, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'generate_structures', arguments: { molecular_formula: 'C6H6' } } },
    });
    t.match(mcp.json().result, { isError: true, content: [{ text: /Status code: 429.*at most 2 may be queued or running/ }] }, 'over MCP too: the tool call is refused');

    const metrics = (await app.inject({ url: '/metrics' })).body;
    t.match(metrics, /natprod_rate_limited_total\{budget="concurrent",role="api"\} 3/, 'refusals counted');
  });
}

t.test('bullmq: two api replicas on one Redis share counters and slots', async (t) => {
  const prefix = testPrefix();
  const env = { QUEUE_PREFIX: prefix, RATE_LIMIT_QUICK: '2', LONG_JOBS_PER_CLIENT: '1', RATE_LIMIT_EXEMPT: '' };
  const a = await build(t, 'bullmq', env);
  if (!a) return skip(t, 'bullmq');
  const b = (await build(t, 'bullmq', env))!;
  t.equal((await a.app.inject({ url: QUICK })).statusCode, 200, 'replica A');
  t.equal((await b.app.inject({ url: QUICK })).statusCode, 200, 'replica B');
  t.equal((await a.app.inject({ url: QUICK })).statusCode, 429, 'replica A sees the count of B');

  const first = await a.app.inject({ url: SLOW });
  t.equal(first.statusCode, 202, 'long job on replica A');
  t.teardown(() => a.services.runner.cancel(first.json().job_id).catch(() => {}));
  const second = await b.app.inject({ url: SLOW });
  t.equal(second.statusCode, 429, 'replica B refuses the same client a second long job');
  // (over the runner: this client's quick budget, which DELETE /jobs/{id} counts against, is spent)
  await b.services.runner.cancel(first.json().job_id);
  const third = await b.app.inject({ url: SLOW });
  t.equal(third.statusCode, 202, 'once it is cancelled (on either replica), the slot is free');
  t.teardown(() => b.services.runner.cancel(third.json().job_id).catch(() => {}));
});

function skip(t: { plan: (n: number, comment?: string) => void }, mode: Mode) {
  skipAll(t, `${NO_REDIS}: the ${mode} mode is not run`);
}
