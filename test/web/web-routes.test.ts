/**
 * The web interface's routes without a browser (docs/web.md): every page answers its HTML shell
 * with a Content-Security-Policy that runs only this origin's scripts; `/tools` and `/jobs/{id}`
 * answer a browser's navigation with the page and every other client with JSON, as before; `/`
 * still redirects to HOMEPAGE_URL; `/health` links to /search; the shell reflects nothing of the
 * URL, and no source of web/ parses text as HTML (the browser test shows a molecule named
 * `<script>` as text).
 */
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from '../helpers/app.ts';

const ROOT = join(import.meta.dirname, '../..');
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const PAGES = ['/search', '/search?q=quercetin&type=text&page=2', '/compounds/CNP0000001', '/collections', '/dereplication', '/tools/generate_structures', '/curator'];

t.test('web pages', async (t) => {
  const { app, config } = (await build(t, 'inline'))!;
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  for (const url of PAGES) {
    const res = await get(url, HTML);
    t.equal(res.statusCode, 200, `${url}: 200`);
    t.match(res.headers['content-type'], /^text\/html/, `${url}: HTML`);
    const csp = String(res.headers['content-security-policy']);
    const script = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    t.equal(script, "'self'", `${url}: scripts from this origin only (${script})`);
    t.match(csp, /object-src 'none'/, `${url}: no plugins`);
    t.notMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/, `${url}: no inline script`);
  }

  // The shell never carries the URL: a path holding markup comes back as the same shell.
  const evil = await get(`/compounds/${encodeURIComponent('<script>alert(1)</script>')}`, HTML);
  t.equal(evil.statusCode, 200);
  t.notMatch(evil.body, /alert\(1\)/, 'nothing of the path is reflected into the page');

  // The first script and its stylesheet, and the editor chunk loaded only when the editor opens.
  const page = (await get('/search', HTML)).body;
  const assets = [...page.matchAll(/(?:src|href)="(\/static\/web\/[^"]+)"/g)].map((m) => m[1]!);
  t.equal(assets.length, 2, 'one script and one stylesheet');
  let firstGz = 0;
  for (const url of assets) {
    const res = await get(url);
    t.equal(res.statusCode, 200, `${url}: 200`);
    t.match(res.headers['cache-control'], /immutable/, `${url}: cached as immutable (hashed name)`);
    firstGz += gzipSync(res.rawPayload).length;
    if (url.endsWith('.js')) {
      t.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
      t.notMatch(res.body, /CanvasEditor|OCL\b.*Molecule/, 'the editor (OpenChemLib) is not in the first script');
      t.match(res.body, /import\(["']\.\/chunk-/, 'the editor is a chunk imported on demand');
    }
  }
  t.ok(firstGz < 300 * 1024, `first page's script and style: ${(firstGz / 1024).toFixed(1)} KB gzipped (limit 300 KB)`);
  t.equal((await get('/static/web/nope.js')).statusCode, 404, 'an unknown asset is a 404');

  // Negotiated: a browser's navigation gets the page, API clients the JSON as before.
  const toolsPage = await get('/tools', HTML);
  t.match(toolsPage.headers['content-type'], /^text\/html/, '/tools in a browser: the page');
  t.match(String(toolsPage.headers.vary), /Accept/, 'varies by Accept');
  const toolsJson = await get('/tools');
  t.same(toolsJson.json(), { status: 'OK' }, "/tools for API clients: the original service's answer");
  t.match(String(toolsJson.headers.vary), /Accept/, 'the JSON varies by Accept too');
  t.same((await get('/latest/tools', HTML)).json(), { status: 'OK' }, '/latest/tools stays JSON');
  t.match((await get('/jobs/nonexistent', HTML)).headers['content-type'], /^text\/html/, '/jobs/{id} in a browser: the page (it polls the JSON)');
  const job = await get('/jobs/nonexistent', { accept: 'application/json' });
  t.equal(job.statusCode, 404, '/jobs/{id} for API clients: the job record, here 404');
  t.match(job.headers['content-type'], /application\/json/);

  // `/` still redirects; /health links to the pages.
  const home = await get('/', HTML);
  t.equal(home.statusCode, 307);
  t.equal(home.headers.location, config.HOMEPAGE_URL, '/ redirects to HOMEPAGE_URL');
  t.same((await get('/health')).json().links, { web: '/search', docs: '/docs' }, '/health links to /search');
  t.match(JSON.stringify((await get('/openapi.json')).json().info), /\(\/search\)/, 'the docs page (the document\'s description) links to /search');
});

t.test('no source of web/ parses text as HTML', async (t) => {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(join(ROOT, 'web'));
  t.ok(files.length >= 10, `${files.length} sources`);
  const risky = /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|srcdoc/;
  for (const f of files) t.notMatch(readFileSync(f, 'utf8'), risky, `${f.slice(ROOT.length + 1)}: text only`);
  // The check itself does catch the pattern.
  t.match('el.innerHTML = name', risky, 'the pattern finds an innerHTML assignment');
});
