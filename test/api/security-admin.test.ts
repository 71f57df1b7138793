/**
 * Bull Board at /admin/queues (distributed mode, so Redis): 401 without a token or with a bad one,
 * 403 for a catalog user who is not an admin, 200 for an admin by Authorization header; in a
 * browser's way, `?token=` answers a cookie and a redirect that drops the token from the address,
 * and the cookie then opens the page, its assets and its API. No CORS for /admin. In the inline
 * mode there is no board.
 */
import t from 'tap';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { build } from '../helpers/app.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

t.test('inline mode: no board', async (t) => {
  const built = (await build(t, 'inline'))!;
  t.equal((await built.app.inject({ url: '/admin/queues' })).statusCode, 404);
});

t.test('bullmq mode: Bull Board for admins', async (t) => {
  const built = await build(t, 'bullmq');
  if (!built) return skipAll(t, NO_REDIS);
  const { app, services } = built;
  const tokenOf = async (email: string, role: 'reader' | 'curator' | 'admin') => issueToken(services.store, (await ensureUser(services.store, email, role)).id as number);
  const admin = await tokenOf('root@lab.org', 'admin');
  const curator = await tokenOf('cur@lab.org', 'curator');

  const none = await app.inject({ url: '/admin/queues' });
  t.equal(none.statusCode, 401, 'no token: 401');
  t.match(none.headers['www-authenticate'], /^Bearer/);
  t.match(none.json(), { detail: /token=/ }, 'says how to give the token');
  t.equal((await app.inject({ url: '/admin/queues', headers: { authorization: 'Bearer 1|wrong' } })).statusCode, 401, 'bad token: 401');
  t.equal((await app.inject({ url: '/admin/queues/api/queues' })).statusCode, 401, 'its API too');

  const notAdmin = await app.inject({ url: '/admin/queues', headers: { authorization: `Bearer ${curator}` } });
  t.equal(notAdmin.statusCode, 403, 'curator: 403');
  t.equal((await app.inject({ url: `/admin/queues?token=${encodeURIComponent(curator)}` })).statusCode, 403, 'curator by ?token=: 403, no cookie');

  const page = await app.inject({ url: '/admin/queues', headers: { authorization: `Bearer ${admin}` } });
  t.equal(page.statusCode, 200, 'admin by header: 200');
  t.match(page.headers['content-type'], /text\/html/);
  t.match(page.body, /<div id="root">/, 'the board page');
  t.notMatch(page.body, /fonts\.googleapis\.com/, 'no third-party fonts');
  t.match(page.headers['content-security-policy'], /script-src 'self'/);

  const login = await app.inject({ url: `/admin/queues/?token=${encodeURIComponent(admin)}` });
  t.equal(login.statusCode, 303, '?token=: redirect');
  t.equal(login.headers.location, '/admin/queues/', 'to the page without the token');
  const cookie = String(login.headers['set-cookie']);
  t.match(cookie, /^natprod_admin=[^;]+; Path=\/admin\/queues; HttpOnly; SameSite=Strict; Max-Age=\d+$/, 'an HttpOnly, SameSite=Strict cookie for /admin/queues');
  const jar = { cookie: cookie.split(';')[0]! };

  const byCookie = await app.inject({ url: '/admin/queues/', headers: jar });
  t.equal(byCookie.statusCode, 200, 'cookie opens the page');
  const asset = /src="(static\/js\/main[^"]+\.js)"/.exec(byCookie.body)?.[1];
  t.ok(asset, 'the page names its script');
  const js = await app.inject({ url: `/admin/queues/${asset}`, headers: jar });
  t.equal(js.statusCode, 200, 'its assets load with the cookie');
  t.equal((await app.inject({ url: `/admin/queues/${asset}` })).statusCode, 401, 'and not without it');
  const api = await app.inject({ url: '/admin/queues/api/queues', headers: jar });
  t.equal(api.statusCode, 200, 'its API answers');
  const names = (api.json().queues as { name: string }[]).map((q) => q.name).sort();
  t.same(names, ['chem-batch', 'chem-long', 'chem-quick'], 'the three queues');

  const cors = await app.inject({ method: 'OPTIONS', url: '/admin/queues/api/queues', headers: { origin: 'https://elsewhere.org', 'access-control-request-method': 'GET' } });
  t.notOk(cors.headers['access-control-allow-origin'], 'no CORS for /admin');
});
