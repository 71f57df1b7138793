/** User management through the catalog API: admins only; e-mail rules; passwords hashed, never output; tokens revoked with the user. */
import t from 'tap';
import { build, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds()) {
  t.test(`users on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const login = (email: string, password: string) => b.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

    t.test('only admins read or write users', async (t) => {
      for (const role of ['reader', 'curator'] as const) {
        t.equal((await b.call('GET', '/api/users', undefined, role)).status, 403, `${role} detail`);
        t.equal((await b.call('POST', '/api/users/search', {}, role)).status, 403, `${role} search`);
        t.equal((await b.call('POST', '/api/users/mutate', { mutate: [{ operation: 'create', attributes: { email: 'x@y.org' } }] }, role)).status, 403, `${role} mutate`);
        t.equal((await b.call('DELETE', '/api/users', { resources: [1] }, role)).status, 403, `${role} delete`);
      }
      const d = await b.call('GET', '/api/users', undefined, 'admin');
      t.same(d.json.data.fields, ['id', 'email', 'name', 'role']);
      t.match(d.json.data.rules.all, { role: ['in:reader,curator,admin'], password: ['nullable|string|min:8'] });
      const s = await b.call('POST', '/api/users/search', { search: { sorts: [{ field: 'id' }], gates: ['update'] } }, 'admin');
      t.same(s.json.data.map((u: any) => [u.email, u.role]), [['reader@x.org', 'reader'], ['curator@x.org', 'curator'], ['admin@x.org', 'admin']]);
      t.same(Object.keys(s.json.data[2]), ['id', 'email', 'name', 'role', 'gates'], 'no password hash in the output');
      const gates = await b.call('POST', '/api/molecules/search', { search: { gates: ['create'] } }, 'curator');
      t.same(gates.json.meta, { gates: { authorized_to_create: true } }, 'other resources keep their rules');
    });

    t.test('create, change role and password, delete', async (t) => {
      const c = await b.call('POST', '/api/users/mutate', { mutate: [{ operation: 'create', attributes: { email: 'New@Lab.org', name: 'New', role: 'curator', password: 'long enough' } }] }, 'admin');
      t.equal(c.status, 200, JSON.stringify(c.json));
      const [id] = c.json.created;
      const stored = (await b.store.findByIds('users', [id]))[0];
      t.match(stored, { email: 'new@lab.org', role: 'curator', password_hash: /^scrypt\$/ });
      t.notOk(JSON.stringify(stored).includes('long enough'));
      const tok = (await login('new@lab.org', 'long enough')).json().access_token;
      t.match(tok, /^\d+\|/);
      const asNew = (payload: object) => b.app.inject({ method: 'POST', url: '/api/organisms/mutate', headers: { authorization: `Bearer ${tok}` }, payload });
      t.equal((await asNew({ mutate: [{ operation: 'create', attributes: { name: 'by new' } }] })).statusCode, 200, 'a curator writes');
      await b.call('POST', '/api/users/mutate', { mutate: [{ operation: 'update', key: id, attributes: { role: 'reader', password: 'another one' } }] }, 'admin');
      t.equal((await asNew({ mutate: [{ operation: 'create', attributes: { name: 'by new 2' } }] })).statusCode, 403, 'the new role applies to existing tokens at once');
      t.equal((await login('new@lab.org', 'long enough')).statusCode, 401, 'old password refused');
      t.equal((await login('new@lab.org', 'another one')).statusCode, 200);
      const del = await b.call('DELETE', '/api/users', { resources: [id] }, 'admin');
      t.same(del.json, { data: [{ id, email: 'new@lab.org', name: 'New', role: 'reader' }], meta: [] });
      t.equal(await b.store.count('tokens', { user_id: id }), 0, 'the user\'s tokens are gone');
      t.equal((await b.app.inject({ method: 'GET', url: '/api/molecules', headers: { authorization: `Bearer ${tok}` } })).statusCode, 401);
    });

    t.test('validation', async (t) => {
      const m = async (attributes: object, operation = 'create', key?: number) =>
        (await b.call('POST', '/api/users/mutate', { mutate: [{ operation, ...(key ? { key } : {}), attributes }] }, 'admin')).json.errors;
      t.same(await m({ name: 'no mail' }), { 'mutate.0.attributes.email': ['The mutate.0.attributes.email field is required.'] });
      t.same(await m({ email: 'not-an-address' }), { 'mutate.0.attributes.email': ['The mutate.0.attributes.email field must be a valid email address.'] });
      t.same(await m({ email: 'READER@x.org' }), { 'mutate.0.attributes.email': ['The mutate.0.attributes.email has already been taken.'] });
      t.same(await m({ email: 'a@b.org', role: 'root', password: 'short' }), {
        'mutate.0.attributes.role': ['The selected mutate.0.attributes.role is invalid.'],
        'mutate.0.attributes.password': ['The mutate.0.attributes.password field must be at least 8 characters.'],
      });
      t.same(await m({ password_hash: 'x' }, 'update', 1), { 'mutate.0.attributes': ['The password_hash key is not valid for the mutate.0.attributes field.'] });
      t.equal((await b.call('POST', '/api/users/mutate', { mutate: [{ operation: 'update', key: 1, attributes: { email: 'reader@x.org', name: 'Reader' } }] }, 'admin')).status, 200, 'a user keeps its own e-mail');
      t.same(await b.call('POST', '/api/users/search', { search: { filters: [{ field: 'password', value: 'x' }] } }, 'admin').then((r) => r.json.errors), { 'search.filters.0.field': ["The 'field' field is not valid."] });
    });
  });
}
