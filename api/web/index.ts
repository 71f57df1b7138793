/**
 * The web interface (docs/web.md): researchers' pages at COCONUT's paths (`/search`,
 * `/compounds/{identifier}`, `/collections`, ...), each the same small HTML shell whose script
 * (web/, bundled by ./bundle.ts) reads the path and draws the page from natprod's own API. No page
 * carries data from the server: catalog text only ever reaches the DOM as text, in the browser.
 * The shell has no inline script or style, so the page policy (api/plugins/csp.ts) allows this
 * origin's files and nothing inline.
 *
 * `/tools` and `/jobs/{id}` already answer the API (the original service's router health, the job
 * record): a browser navigating there (Accept naming text/html) gets the page, every other client
 * the JSON as before.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ASSET_PREFIX, webBundle } from './bundle.ts';

/** The pages: path → title (the browser's tab; each page sets its own once drawn). */
export const WEB_PAGES: Record<string, string> = {
  '/search': 'Search',
  '/compounds/:identifier': 'Compound',
  '/collections': 'Collections',
  '/dereplication': 'Dereplication',
  '/tools/:operation': 'Tool',
  '/curator': 'Curator',
};
/** API paths that answer a browser's navigation with a page. */
export const NEGOTIATED_PAGES: Record<string, string> = { '/tools': 'Tools', '/jobs/:id': 'Job' };

const NAV: [string, string][] = [
  ['/search', 'Search'],
  ['/collections', 'Collections'],
  ['/dereplication', 'Dereplication'],
  ['/tools', 'Tools'],
  ['/curator', 'Curator'],
];

export function shell(title: string, script: string, style: string): string {
  const nav = NAV.map(([href, label]) => `<li><a href="${href}">${label}</a></li>`).join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">' +
    `<title>${title} · natprod</title>` +
    (style ? `<link rel="stylesheet" href="${ASSET_PREFIX}${style}">` : '') +
    `<script type="module" src="${ASSET_PREFIX}${script}"></script>` +
    '</head><body><a class="skip" href="#main">Skip to content</a>' +
    `<header class="top"><a class="brand" href="/search">natprod</a><nav aria-label="Main"><ul>${nav}</ul></nav></header>` +
    '<main id="main" tabindex="-1"><p class="loading">Loading…</p>' +
    '<noscript><p>This page needs JavaScript. The same data is in the API: <a href="/docs">/docs</a>.</p></noscript></main>' +
    '<footer><a href="/docs">API documentation</a> · <a href="/health">Service health</a></footer></body></html>'
  );
}

/** Pages that open the structure editor (Ketcher). */
const EDITOR_PAGES = new Set(['/search']);
/**
 * Ketcher styles itself inline: its UI (MUI, styled by emotion) adds a `<style>` element, and
 * ketcher-core sets `style` attributes with setAttribute (d3's `.attr('style', ...)`, a zoom
 * control's cssText), each blocked under `style-src 'self'`; three distinct ones on merely opening
 * it, more in its dialogs, so no list of hashes would hold. The pages that open it allow inline
 * styles, as Swagger UI's page does (api/plugins/csp.ts); scripts stay `script-src 'self'` (the
 * WASM runs in Ketcher's worker, under the worker's own policy, api/web/ketcher-assets.ts), and
 * no page turns text into HTML (web/dom.ts), so there is no markup to inject a style into.
 */
export const EDITOR_STYLE_SRC = "style-src 'self' 'unsafe-inline'";
/** A page policy with EDITOR_STYLE_SRC for its style-src (hashes would cancel 'unsafe-inline'). */
export const withEditorStyle = (policy: string) => policy.replace(/(^|;\s*)style-src [^;]*/, `$1${EDITOR_STYLE_SRC}`);
/** A route hook: runs after the security plugin's, which set the page policy. */
const allowEditorStyle = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') reply.header('content-security-policy', withEditorStyle(csp));
  return payload;
};

/** A browser's navigation: Accept names HTML (fetch and API clients send JSON or anything). */
const wantsHtml = (req: FastifyRequest) => req.method === 'GET' && /\btext\/html\b/.test(String(req.headers.accept ?? ''));

async function web(app: FastifyInstance) {
  // Bundling (3-4 s with Ketcher) happens on the first page request; the server process
  // (api/server.ts) starts it right after listening, so a visitor rarely waits. Apps built by the
  // tests bundle only when a test asks for a page, instead of spending seconds of CPU on each.

  const page = async (title: string, reply: FastifyReply) => {
    const b = await webBundle();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell(title, b.script, b.style));
  };
  for (const [path, title] of Object.entries(WEB_PAGES)) {
    const onSend = EDITOR_PAGES.has(path) ? [allowEditorStyle] : [];
    app.get(path, { schema: { hide: true }, onSend }, (_req, reply) => page(title, reply));
  }
  const negotiated = new Set(Object.keys(NEGOTIATED_PAGES));
  app.addHook('onRequest', async (req, reply) => {
    const route = req.routeOptions.url;
    if (route && negotiated.has(route) && wantsHtml(req)) {
      return page(NEGOTIATED_PAGES[route]!, reply);
    }
  });
  // Caches must keep the page and the JSON apart.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.url && negotiated.has(req.routeOptions.url)) reply.header('vary', 'Origin, Accept');
    return payload;
  });

  app.get(`${ASSET_PREFIX}:file`, { schema: { hide: true } }, async (req, reply) => {
    const { file } = req.params as { file: string };
    const asset = (await webBundle()).assets.get(file);
    if (!asset) return reply.code(404).send({ detail: `No such file: ${file}` });
    reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable');
    if (asset.csp) reply.header('content-security-policy', asset.csp);
    if (asset.gzip) {
      reply.header('vary', 'Accept-Encoding');
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(asset.gzip);
    }
    return reply.send(asset.body);
  });
}

// Not encapsulated: its hook answers the negotiated API routes registered elsewhere.
export default fp(web, { name: 'natprod-web' });
