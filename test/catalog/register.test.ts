/**
 * Self-registration (`POST /api/auth/register`, COCONUT's RegisterController): off by default
 * (403), COCONUT's fields, rules and Laravel messages when on, duplicate e-mails refused, and the
 * new account is a reader (reads, never writes). CATALOG_REGISTRATION wiring through the real app.
 */
import t from 'tap';
import Fastify from 'fastify';
import catalogPlugin, { REGISTRATION_OFF } from '../../api/catalog/plugin.ts';
import { verifyPassword } from '../../api/catalog/auth/auth.ts';
import { REGISTERED_MESSAGE } from '../../api/catalog/auth/register.ts';
import { loadConfig } from '../../shared/config.ts';
import { build as buildFullApp } from '../helpers/app.ts';
import { fakeDerive, makeStore, seed, storeKinds, type StoreKind } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';
import { answerCheck } from '../helpers/openapi-check.ts';

const VALID = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada',
  affiliation: 'Analytical Engines Ltd',
  email: 'Ada@Example.org',
  password: 'difference-engine',
  password_confirmation: 'difference-engine',
  orcid_id: '0000-0002-1825-0097',
};

async function app(t: Tap, registration: boolean | undefined, kind: StoreKind = 'embedded') {
  const store = await makeStore(t, kind);
  const a = Fastify();
  answerCheck(t, a);
  await a.register(catalogPlugin, { store, derive: fakeDerive, ...(registration === undefined ? {} : { registration }) });
  await a.ready();
  t.teardown(() => a.close());
  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const res = await a.inject({ method: method as never, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: res.statusCode, json: res.json() };
  };
  return { store, call };
}
type Tap = Parameters<typeof makeStore>[0];

t.test('off by default: 403 naming the reason, nothing created', async (t) => {
  for (const setting of [undefined, false]) {
    const { store, call } = await app(t, setting);
    const r = await call('POST', '/api/auth/register', VALID);
    t.same(r, { status: 403, json: { message: REGISTRATION_OFF } }, `registration ${setting}`);
    t.equal(await store.count('users', {}), 0);
  }
  t.equal(loadConfig({}).CATALOG_REGISTRATION, false, 'CATALOG_REGISTRATION defaults to false');
  t.equal(loadConfig({ CATALOG_REGISTRATION: 'true' }).CATALOG_REGISTRATION, true);
  t.throws(() => loadConfig({ CATALOG_REGISTRATION: 'maybe' }), /CATALOG_REGISTRATION/, 'a bad value stops the start with its name');
});

for (const kind of storeKinds()) {
  t.test(`on (${kind}): a reader account and its token`, storeVariant(kind), async (t) => {
    const { store, call } = await app(t, true, kind);
    await seed(store);
    const r = await call('POST', '/api/auth/register', VALID);
    t.equal(r.status, 201);
    t.match(r.json, { success: true, message: REGISTERED_MESSAGE, token: /^\d+\|[A-Za-z0-9]{40}$/, token_type: 'Bearer' });
    t.equal(r.json.access_token, r.json.token, 'the login shape carries the same token');
    const user = await store.findOne('users', { email: 'ada@example.org' });
    t.match(user, { role: 'reader', name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', username: 'ada', affiliation: 'Analytical Engines Ltd', orcid_id: '0000-0002-1825-0097' });
    t.notOk(JSON.stringify(user).includes('difference-engine'), 'no plain password stored');
    t.ok(await verifyPassword('difference-engine', user!.password_hash), 'scrypt hash, as every other user');

    const token = r.json.token as string;
    t.equal((await call('GET', '/api/molecules', undefined, token)).status, 200, 'detail');
    const s = await call('POST', '/api/molecules/search', { search: { filters: [{ field: 'name', value: 'caffeine' }] } }, token);
    t.same([s.status, s.json.total], [200, 1], 'search');
    t.equal((await call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: 1, attributes: { name: 'x' } }] }, token)).status, 403, 'no mutate');
    t.equal((await call('POST', '/api/organisms/actions/refresh-counts', {}, token)).status, 403, 'no actions');
    t.equal((await call('DELETE', '/api/molecules', { resources: [1] }, token)).status, 403, 'no delete');
    t.equal((await call('POST', '/api/users/search', {}, token)).status, 403, 'no user management');
    t.equal((await store.findByIds('molecules', [1]))[0].name, 'caffeine');

    const login = await call('POST', '/api/auth/login', { email: 'ada@example.org', password: 'difference-engine' });
    t.equal(login.status, 200, 'the password logs in');
    t.equal((await call('GET', '/api/auth/logout', undefined, token)).status, 200);
    t.equal((await call('GET', '/api/molecules', undefined, token)).status, 401, 'a logged-out registration token is revoked like any');

    const dup = await call('POST', '/api/auth/register', { ...VALID, email: 'ADA@example.ORG', username: 'ada2' });
    t.same(dup, { status: 422, json: { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } } }, 'duplicate e-mail, case-insensitive');
    t.equal((await call('POST', '/api/auth/register', { ...VALID, email: 'reader@x.org' })).status, 201, 'seed users are other addresses');
    t.equal((await call('POST', '/api/auth/register', { ...VALID, email: 'READER@x.org' })).status, 422);

    const both = await Promise.all([1, 2].map(() => call('POST', '/api/auth/register', { ...VALID, email: 'twice@example.org' })));
    t.same(both.map((x) => x.status).sort(), [201, 422], 'two concurrent registrations of one address: one wins');
    t.equal(await store.count('users', { email: 'twice@example.org' }), 1);
  });
}

t.test('validation: COCONUT rules, Laravel messages, every error at once', async (t) => {
  const { store, call } = await app(t, true);
  const empty = await call('POST', '/api/auth/register', {});
  t.same(empty, {
    status: 422,
    json: {
      message: 'The first name field is required. (and 6 more errors)',
      errors: {
        first_name: ['The first name field is required.'],
        last_name: ['The last name field is required.'],
        username: ['The username field is required.'],
        email: ['The email field is required.'],
        affiliation: ['The affiliation field is required.'],
        password: ['The password field is required.'],
        password_confirmation: ['The password confirmation field is required.'],
      },
    },
  });
  const bad = await call('POST', '/api/auth/register', {
    first_name: 'x'.repeat(256), last_name: '  ', username: 7, email: 'not-an-email', affiliation: 'Lab',
    password: 'short', password_confirmation: 'other', orcid_id: { $ne: null },
  });
  t.same(bad.json.errors, {
    first_name: ['The first name field must not be greater than 255 characters.'],
    last_name: ['The last name field is required.'],
    username: ['The username field must be a string.'],
    email: ['The email field must be a valid email address.'],
    password: ['The password field must be at least 8 characters.', 'The password field confirmation does not match.'],
    password_confirmation: ['The password confirmation field must be at least 8 characters.'],
    orcid_id: ['The orcid id field must be a string.'],
  });
  const mismatch = await call('POST', '/api/auth/register', { ...VALID, password_confirmation: 'difference-engine!' });
  t.same(mismatch.json.errors, { password: ['The password field confirmation does not match.'] }, 'the two passwords are compared (COCONUT does not)');
  const noOrcid = await call('POST', '/api/auth/register', { ...VALID, orcid_id: undefined, email: 'b@example.org' });
  t.equal(noOrcid.status, 201, 'orcid_id is optional');
  t.equal((await store.findOne('users', { email: 'b@example.org' }))!.orcid_id, null);
  t.equal((await call('POST', '/api/auth/register', [VALID])).status, 422, 'a body that is not an object');
  t.equal(await store.count('users', {}), 1, 'only the valid registration was stored');
});

t.test('CATALOG_REGISTRATION=true opens the route in the real app', async (t) => {
  const built = (await buildFullApp(t, 'inline', { CATALOG_REGISTRATION: 'true' }))!;
  const r = await built.app.inject({ method: 'POST', url: '/api/auth/register', payload: VALID });
  t.equal(r.statusCode, 201);
  const token = r.json().token as string;
  t.equal((await built.app.inject({ url: '/api/molecules', headers: { authorization: `Bearer ${token}` } })).statusCode, 200);
});
