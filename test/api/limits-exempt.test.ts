/**
 * Who the limits apply to by default (RATE_LIMIT_EXEMPT, default `loopback`): a researcher's batch
 * against a local `npm start` is never throttled, while a remote client, seen through a trusted
 * reverse proxy on the same host (X-Forwarded-For), keeps the quick budget; `RATE_LIMIT_EXEMPT=`
 * (empty) limits loopback too. The budgets here are the shipped defaults, read from loadConfig.
 */
import t from 'tap';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig } from '../../shared/config.ts';
import { build } from '../helpers/app.ts';

const CALLS = 2000;
const defaults = loadConfig({});
// The shipped budgets and cap (build() turns them off for the other suites).
const shipped = {
  RATE_LIMIT_QUICK: String(defaults.RATE_LIMIT_QUICK),
  RATE_LIMIT_LONG: String(defaults.RATE_LIMIT_LONG),
  RATE_LIMIT_WRITES: String(defaults.RATE_LIMIT_WRITES),
  LONG_JOBS_PER_CLIENT: String(defaults.LONG_JOBS_PER_CLIENT),
};
const SMILES = ['CCO', 'OC(=O)c1ccccc1O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O'];
const QUICK = (i: number) => `/latest/convert/canonicalsmiles?smiles=${encodeURIComponent(SMILES[i % SMILES.length]!)}`;

/** Status codes of CALLS quick calls, counted by code. */
async function burst(app: FastifyInstance, extra: Omit<InjectOptions, 'url'> = {}) {
  const counts: Record<number, number> = {};
  let first429 = -1;
  for (let i = 0; i < CALLS; i++) {
    const code = (await app.inject({ ...extra, url: QUICK(i) })).statusCode;
    counts[code] = (counts[code] ?? 0) + 1;
    if (code === 429 && first429 < 0) first429 = i;
  }
  return { counts, first429 };
}

t.test('the shipped defaults', async (t) => {
  t.same(defaults.RATE_LIMIT_EXEMPT, ['loopback'], 'RATE_LIMIT_EXEMPT defaults to loopback');
  t.ok(defaults.RATE_LIMIT_QUICK > 0 && defaults.RATE_LIMIT_QUICK < CALLS, `the quick budget (${defaults.RATE_LIMIT_QUICK}) is below ${CALLS}, so the runs below can tell`);
  t.same(loadConfig({ RATE_LIMIT_EXEMPT: '' }).RATE_LIMIT_EXEMPT, [], 'empty means nobody is exempt');
  t.same(loadConfig({ RATE_LIMIT_EXEMPT: 'none' }).RATE_LIMIT_EXEMPT, []);
  t.same(loadConfig({ RATE_LIMIT_EXEMPT: 'loopback, 10.0.0.0/8,192.0.2.7' }).RATE_LIMIT_EXEMPT, ['loopback', '10.0.0.0/8', '192.0.2.7']);
  t.throws(() => loadConfig({ RATE_LIMIT_EXEMPT: 'localhost' }), /RATE_LIMIT_EXEMPT: must be loopback, linklocal, uniquelocal, addresses or CIDRs/, 'a bad entry stops the start with its name');
});

t.test('defaults: loopback is not limited, a forwarded remote client is', async (t) => {
  const { app } = (await build(t, 'inline', shipped))!;
  const local = await burst(app);
  t.same(local.counts, { 200: CALLS }, `${CALLS} quick calls from loopback: all 200`);

  const remote = await burst(app, { headers: { 'x-forwarded-for': '203.0.113.9' } });
  t.equal(remote.first429, defaults.RATE_LIMIT_QUICK, `through the trusted local proxy, 203.0.113.9 is refused at call ${defaults.RATE_LIMIT_QUICK + 1}`);
  t.same(remote.counts, { 200: defaults.RATE_LIMIT_QUICK, 429: CALLS - defaults.RATE_LIMIT_QUICK }, 'and every call after it');

  const spoof = await app.inject({ url: QUICK(0), headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' } });
  t.equal(spoof.statusCode, 429, 'a loopback address the client put in front of its own does not exempt it');
  const other = await app.inject({ url: QUICK(0), headers: { 'x-forwarded-for': '198.51.100.4' } });
  t.equal(other.statusCode, 200, 'another remote client keeps its own budget');
  t.equal((await app.inject({ url: QUICK(1) })).statusCode, 200, 'loopback still answered');
});

t.test('RATE_LIMIT_EXEMPT= (empty) limits loopback too', async (t) => {
  const { app } = (await build(t, 'inline', { ...shipped, RATE_LIMIT_EXEMPT: '' }))!;
  const local = await burst(app);
  t.equal(local.first429, defaults.RATE_LIMIT_QUICK, `refused at call ${defaults.RATE_LIMIT_QUICK + 1}`);
  t.same(local.counts, { 200: defaults.RATE_LIMIT_QUICK, 429: CALLS - defaults.RATE_LIMIT_QUICK });
});

t.test('an exempt client is not held to the long-job cap; a listed network is exempt', async (t) => {
  const { app, services } = (await build(t, 'inline', { ...shipped, LONG_JOBS_PER_CLIENT: '1', RATE_LIMIT_EXEMPT: 'loopback,10.0.0.0/8' }))!;
  const ids: string[] = [];
  t.teardown(async () => {
    for (const id of ids) await services.runner.cancel(id).catch(() => {});
  });
  const slow = (headers: Record<string, string> = {}) =>
    app.inject({ url: '/tools/generate-structures?molecular_formula=C12H18&max_heavy_atoms=14&limit=1', headers });
  for (const [who, headers, codes] of [
    ['loopback', {}, [202, 202]],
    ['10.1.2.3 (listed)', { 'x-forwarded-for': '10.1.2.3' }, [202, 202]],
    ['203.0.113.9', { 'x-forwarded-for': '203.0.113.9' }, [202, 429]],
  ] as const) {
    const got: number[] = [];
    for (const _ of codes) {
      const res = await slow(headers);
      got.push(res.statusCode);
      if (res.statusCode === 202) ids.push(res.json().job_id);
    }
    t.same(got, codes, `${who}: two long jobs at once`);
  }
});
