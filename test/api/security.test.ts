/**
 * CORS and security headers over HTTP: helmet's headers on every answer; CORS open to any origin
 * for the chemistry service and catalog reads, closed for catalog writes unless the origin is
 * listed by name (preflight without CORS headers); the 3D viewer page's CSP names exactly the
 * SHA-256 of its inline script and style, with no 'unsafe-inline' for scripts; TRUST_PROXY keeps
 * X-Forwarded-For from untrusted peers out of the client IP.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { build } from '../helpers/app.ts';

const APP_ORIGIN = 'https://app.example.org';
const built = (await build(t, 'inline', { CORS_ORIGINS: `*,${APP_ORIGIN}` }))!;
const { app } = built;

const preflight = (url: string, origin: string, method: string, headers = 'content-type') =>
  app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });

t.test('helmet headers on JSON, SVG and error answers', async (t) => {
  for (const url of ['/health', '/depict/2D?smiles=CCO', '/convert/nothing', '/api/molecules']) {
    const res = await app.inject({ url });
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`);
    t.match(res.headers['strict-transport-security'], /max-age=\d+/, `${url}: HSTS`);
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${url}: referrer policy`);
    t.equal(res.headers['cross-origin-resource-policy'], 'cross-origin', `${url}: embeddable by other sites (depictions)`);
    t.match(res.headers['content-security-policy'], /default-src 'none'/, `${url}: nothing runs in a data answer`);
  }
  const svg = await app.inject({ url: '/depict/2D?smiles=CCO' });
  t.match(svg.headers['content-security-policy'], /style-src 'unsafe-inline'/, 'SVG keeps its style attributes');
  t.notOk(svg.headers['x-frame-options'], 'public answers may be framed (frame-ancestors says where)');
  t.equal((await app.inject({ url: '/api/molecules' })).headers['x-frame-options'], 'SAMEORIGIN', 'the catalog may not');
});

t.test('CORS: chemistry open to any origin, like the original service', async (t) => {
  const pre = await preflight('/latest/chem/descriptors', 'https://elsewhere.org', 'GET');
  t.equal(pre.statusCode, 204, 'preflight accepted');
  t.equal(pre.headers['access-control-allow-origin'], '*');
  t.match(pre.headers['access-control-allow-methods'], /GET/);
  const post = await preflight('/chem/standardize', 'https://elsewhere.org', 'POST');
  t.equal(post.headers['access-control-allow-origin'], '*', 'POST operations too');
  const get = await app.inject({ url: '/convert/canonicalsmiles?smiles=CCO', headers: { origin: 'https://elsewhere.org' } });
  t.equal(get.headers['access-control-allow-origin'], '*');
  t.match(get.headers['access-control-expose-headers'], /Retry-After/, 'Retry-After readable by scripts');
  t.notOk(get.headers['access-control-allow-credentials'], 'no credentials');
});

t.test('CORS: catalog reads and searches open, writes only for listed origins', async (t) => {
  const read = await preflight('/api/molecules', 'https://elsewhere.org', 'GET', 'authorization');
  t.equal(read.statusCode, 204);
  t.equal(read.headers['access-control-allow-origin'], '*');

  for (const url of ['/api/molecules/search', '/api/search']) {
    const search = await preflight(url, 'https://elsewhere.org', 'POST', 'authorization,content-type');
    t.equal(search.headers['access-control-allow-origin'], '*', `POST ${url}: a search is a read, open`);
  }
  for (const [url, method] of [['/api/molecules/mutate', 'POST'], ['/api/molecules', 'DELETE'], ['/api/auth/login', 'POST'], ['/api/auth/register', 'POST'], ['/api/citations/actions/recompute', 'POST']]) {
    const refused = await preflight(url!, 'https://elsewhere.org', method!, 'authorization,content-type');
    t.not(refused.statusCode, 204, `${method} ${url} from an unlisted origin: preflight refused (${refused.statusCode})`);
    t.notOk(refused.headers['access-control-allow-origin'], `${method} ${url}: no CORS headers`);
    t.notOk(refused.headers['access-control-allow-methods'], `${method} ${url}: no methods`);

    const allowed = await preflight(url!, APP_ORIGIN, method!, 'authorization,content-type');
    t.equal(allowed.statusCode, 204, `${method} ${url} from ${APP_ORIGIN}: allowed`);
    t.equal(allowed.headers['access-control-allow-origin'], APP_ORIGIN, 'its own origin, never *');
    t.match(allowed.headers.vary, /Origin/);
  }
  const write = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://elsewhere.org' }, payload: {} });
  t.notOk(write.headers['access-control-allow-origin'], 'the write itself carries no CORS header either');
});

t.test('CORS: the default (*) opens no catalog write; a closed list opens chemistry only to its origins', async (t) => {
  const dflt = (await build(t, 'inline'))!;
  const refused = await dflt.app.inject({ method: 'OPTIONS', url: '/api/molecules/mutate', headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST' } });
  t.notOk(refused.headers['access-control-allow-origin'], 'with CORS_ORIGINS=* no origin may write');
  const only = (await build(t, 'inline', { CORS_ORIGINS: APP_ORIGIN }))!;
  const ok = await only.app.inject({ url: '/health', headers: { origin: APP_ORIGIN } });
  t.equal(ok.headers['access-control-allow-origin'], APP_ORIGIN);
  const no = await only.app.inject({ url: '/health', headers: { origin: 'https://elsewhere.org' } });
  t.notOk(no.headers['access-control-allow-origin'], 'other origins get nothing');
  t.match(ok.headers['content-security-policy'], new RegExp(`frame-ancestors 'self' ${APP_ORIGIN}`), 'and only they may frame it');
});

t.test('the 3D viewer page: CSP with the hashes of exactly its inline blocks', async (t) => {
  const res = await app.inject({ url: '/depict/3D?smiles=CCO' });
  t.equal(res.statusCode, 200);
  const csp = String(res.headers['content-security-policy']);
  const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
  const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
  const inline = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const styles = [...res.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  t.equal(inline.length, 1, 'one inline script');
  t.same(directive('script-src').split(' ').slice(1).sort(), ["'self'", hash(inline[0]!)].sort(), 'script-src: our origin and that script');
  t.same(directive('style-src').split(' ').slice(1).sort(), ["'self'", ...styles.map(hash)].sort(), 'style-src: our origin and that style');
  t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'no unsafe-inline, no unsafe-eval');
  t.match(csp, /frame-ancestors \*/, 'embeddable (COCONUT-style pages frame the viewer)');
  t.notOk(res.headers['x-frame-options']);
  const other = await app.inject({ url: '/depict/3D?smiles=CCN' });
  t.not(other.headers['content-security-policy'], csp, 'the hash follows the molecule');
});

t.test('Swagger UI: its page runs only scripts from this origin', async (t) => {
  const res = await app.inject({ url: '/docs/' });
  const csp = String(res.headers['content-security-policy']);
  t.match(csp, /script-src 'self'(;|$)/, 'no inline script allowed');
  t.match(csp, /frame-ancestors 'self'/);
});

t.test('TRUST_PROXY: X-Forwarded-For counts only from trusted peers', async (t) => {
  const limited = (await build(t, 'inline', { RATE_LIMIT_QUICK: '1', RATE_LIMIT_EXEMPT: '' }))!;
  const from = (ip: string, remoteAddress: string) => limited.app.inject({ url: '/convert/canonicalsmiles?smiles=C', remoteAddress, headers: { 'x-forwarded-for': ip } });
  t.equal((await from('203.0.113.7', '10.0.0.5')).statusCode, 200, 'behind a private proxy: client 203.0.113.7');
  t.equal((await from('203.0.113.8', '10.0.0.5')).statusCode, 200, 'a different forwarded client has its own budget');
  t.equal((await from('203.0.113.9', '198.51.100.1')).statusCode, 200, 'a public peer');
  t.equal((await from('203.0.113.10', '198.51.100.1')).statusCode, 429, 'cannot buy a new budget by forging X-Forwarded-For');
});
