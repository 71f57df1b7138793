/**
 * The web interface's routes without a browser (docs/web.md): every page answers its HTML shell
 * with a Content-Security-Policy that runs only this origin's scripts; `/tools` and `/jobs/{id}`
 * answer a browser's navigation with the page and every other client with JSON, as before; `/`
 * still redirects to HOMEPAGE_URL; `/health` links to /search; the shell reflects nothing of the
 * URL, and no source of web/ parses text as HTML (the browser test shows a molecule named
 * `<script>` as text). Ketcher's worker comes with its own policy, its WASM as application/wasm.
 */
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { build } from '../helpers/app.ts';
import { webBundle } from '../../api/web/bundle.ts';
import { WORKER_CSP } from '../../api/web/ketcher-assets.ts';

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
    // Inline styles only where Ketcher may open (api/web/index.ts, EDITOR_STYLE_SRC).
    const style = /style-src ([^;]*)/.exec(csp)?.[1] ?? '';
    t.equal(style, url.startsWith('/search') ? "'self' 'unsafe-inline'" : "'self'", `${url}: styles (${style})`);
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
      t.notMatch(res.body, /CanvasEditor|OCL\b.*Molecule/, 'the fallback editor (OpenChemLib) is not in the first script');
      t.notMatch(res.body, /StandaloneStructServiceProvider|ketcher-worker-|__reactFiber/, 'the editor (Ketcher, React) is not in the first script');
      t.match(res.body, /import\(["']\.\/chunk-/, 'the editor is a chunk imported on demand');
    }
  }
  t.ok(firstGz < 300 * 1024, `first page's script and style: ${(firstGz / 1024).toFixed(1)} KB gzipped (limit 300 KB)`);
  t.equal((await get('/static/web/nope.js')).statusCode, 404, 'an unknown asset is a 404');

  // Ketcher's worker and Indigo's WASM, served beside the chunks (api/web/ketcher-assets.ts).
  const names = [...(await webBundle()).assets.keys()];
  const worker = names.find((n) => n.startsWith('ketcher-worker-'));
  const wasm = names.find((n) => n.endsWith('.wasm'));
  t.ok(worker && wasm && names.some((n) => /^ketcher-.*\.css$/.test(n)), `Ketcher's worker, WASM and stylesheet are served (${worker}, ${wasm})`);
  const w = await get(`/static/web/${worker}`);
  t.equal(w.headers['content-security-policy'], WORKER_CSP, "the worker's own policy: WASM compilation and this origin only");
  t.match(w.body, new RegExp(wasm!.replace('.', '\\.')), 'the worker asks for the served WASM by its hashed name');
  const plain = await get(`/static/web/${wasm}`);
  t.equal(plain.headers['content-type'], 'application/wasm', 'the WASM as application/wasm (streaming compilation)');
  t.equal(plain.rawPayload.subarray(0, 4).toString('latin1'), '\0asm', `a WASM module (${(plain.rawPayload.length / 1e6).toFixed(1)} MB)`);
  const gz = await get(`/static/web/${wasm}`, { 'accept-encoding': 'gzip, deflate, br' });
  t.equal(gz.headers['content-encoding'], 'gzip', 'gzipped for clients that accept it');
  t.ok(gunzipSync(gz.rawPayload).equals(plain.rawPayload), `the same bytes (${(gz.rawPayload.length / 1e6).toFixed(1)} MB gzipped)`);

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
