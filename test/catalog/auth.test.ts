/** Auth: no/bad token, each role × each operation, login/logout, hashed secrets, token CLI across processes. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import Fastify from 'fastify';
import catalogPlugin from '../../api/catalog/plugin.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import type { CollectionName } from '../../api/catalog/store/types.ts';
import { build, fakeDerive, seed } from './helper.ts';
import { answerCheck } from '../helpers/openapi-check.ts';

const run = promisify(execFile);

t.test('tokens and roles', async (t) => {
  const b = await build(t);
  await seed(b.store);

  t.test('401 without or with a bad token, JSON', async (t) => {
    for (const auth of [undefined, 'Bearer nope', 'Bearer 1|wrong', `Bearer 999|${b.tokens.admin.split('|')[1]}`, b.tokens.admin]) {
      const r = await b.app.inject({ method: 'GET', url: '/api/molecules', headers: auth ? { authorization: auth } : {} });
      t.equal(r.statusCode, 401, String(auth));
      t.same(r.json(), { message: 'Unauthenticated.' });
    }
  });

  t.test('each role against each operation of each resource', async (t) => {
    const R = ['reader', 'curator', 'admin'] as const;
    const want = (reader: number, curator: number, admin: number) => ({ reader, curator, admin });
    const create: Record<string, object> = { molecules: { name: 'm' }, collections: { title: 'c' }, citations: { doi: '10.9/x' }, organisms: { name: 'o' } };
    const update: Record<string, object> = { molecules: { name: 'm2' }, collections: { title: 'c2' }, citations: { title: 't2' }, organisms: { rank: 'genus' } };
    const action: Record<string, [string, Record<string, number>]> = {
      molecules: ['approve', want(403, 200, 200)],
      collections: ['refresh-counts', want(403, 200, 200)],
      organisms: ['refresh-counts', want(403, 200, 200)],
      citations: ['refresh-counts', want(404, 404, 404)],
    };
    for (const res of ['molecules', 'collections', 'citations', 'organisms']) {
      const ops: [string, string, () => Promise<unknown> | unknown, Record<string, number>][] = [
        ['GET', `/api/${res}`, () => undefined, want(200, 200, 200)],
        ['POST', `/api/${res}/search`, () => ({ search: { limit: 10 } }), want(200, 200, 200)],
        ['POST', `/api/${res}/mutate`, () => ({ mutate: [{ operation: 'create', attributes: create[res] }] }), want(403, 200, 200)],
        ['POST', `/api/${res}/mutate`, () => ({ mutate: [{ operation: 'update', key: 1, attributes: update[res] }] }), want(403, 200, 200)],
        ['POST', `/api/${res}/actions/${action[res][0]}`, () => ({ search: { filters: [{ field: 'id', value: 0 }] } }), action[res][1]],
        // a fresh record per call, so each role's delete has something to delete
        ['DELETE', `/api/${res}`, async () => ({ resources: [(await b.store.insert(res as CollectionName, { name: 'victim', title: 'victim' })).id] }), want(403, 403, 200)],
      ];
      for (const [method, url, body, expected] of ops) {
        for (const role of R) {
          const r = await b.call(method, url, await body(), role);
          t.equal(r.status, expected[role], `${role} ${method} ${url}`);
          if (r.status === 403) t.same(r.json, { message: 'This action is unauthorized.' });
        }
      }
    }
  });

  t.test('login and logout', async (t) => {
    const bad = await b.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@x.org', password: 'nope' } });
    t.equal(bad.statusCode, 401);
    t.same(bad.json(), { message: 'Invalid login details' });
    const ok = await b.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ADMIN@x.org', password: 'secret-pass' } });
    t.equal(ok.statusCode, 200);
    const { access_token, token_type } = ok.json();
    t.equal(token_type, 'Bearer');
    t.match(access_token, /^\d+\|[A-Za-z0-9]{40}$/);
    const h = { authorization: `Bearer ${access_token}` };
    t.equal((await b.app.inject({ method: 'GET', url: '/api/molecules', headers: h })).statusCode, 200);
    t.same((await b.app.inject({ method: 'GET', url: '/api/auth/logout', headers: h })).json(), { logout: 'Successful' });
    t.equal((await b.app.inject({ method: 'GET', url: '/api/molecules', headers: h })).statusCode, 401, 'token revoked');
  });

  t.test('secrets and passwords are never stored in plain text', async (t) => {
    const tokens = await b.store.find('tokens', {});
    const secret = b.tokens.reader.split('|')[1];
    t.notOk(JSON.stringify(tokens).includes(secret));
    t.ok(tokens.every((x) => /^[0-9a-f]{64}$/.test(String(x.token_hash))));
    const users = await b.store.find('users', {});
    t.notOk(JSON.stringify(users).includes('secret-pass'));
    t.match(users.find((u) => u.email === 'admin@x.org')!.password_hash, /^scrypt\$/);
  });
});

t.test('token CLI writes while the service runs (embedded store, lock file)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-cli-'));
  const store = await openStore({ dataDir: dir });
  const app = Fastify();
  answerCheck(t, app);
  await app.register(catalogPlugin, { store, derive: fakeDerive });
  t.teardown(async () => {
    await app.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  await store.count('molecules', {});
  const cli = join(import.meta.dirname, '../../api/catalog/cli/token.ts');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', cli, '--email', 'cli@x.org', '--role', 'curator'], { env: { ...process.env, DATA_DIR: dir, MONGO_URL: '' } });
  const token = stdout.trim().split('\n').at(-1)!;
  t.match(token, /^\d+\|\S{40}$/, 'token is the last line');
  const r = await app.inject({ method: 'POST', url: '/api/molecules/mutate', headers: { authorization: `Bearer ${token}` }, payload: { mutate: [{ operation: 'create', attributes: { name: 'from-cli-user' } }] } });
  t.equal(r.statusCode, 200, 'the running service sees the CLI token at once');
  // a second CLI run reuses the user; both processes' writes survive
  const second = await run(process.execPath, ['--import', 'tsx', cli, '--email', 'cli@x.org', '--role', 'admin'], { env: { ...process.env, DATA_DIR: dir, MONGO_URL: '' } });
  const token2 = second.stdout.trim().split('\n').at(-1)!;
  const del = await app.inject({ method: 'DELETE', url: '/api/molecules', headers: { authorization: `Bearer ${token2}` }, payload: { resources: [r.json().created[0]] } });
  t.equal(del.statusCode, 200, 'role upgraded by the second run');
  t.equal((await store.find('users', { email: 'cli@x.org' })).length, 1);
  t.notOk((await readdir(dir)).includes('catalog.lock'), 'lock released');
  t.notOk((await readFile(join(dir, 'tokens.db'), 'utf8')).includes(token.split('|')[1]));
});
