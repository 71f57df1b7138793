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

/** A browser's navigation: Accept names HTML (fetch and API clients send JSON or anything). */
const wantsHtml = (req: FastifyRequest) => req.method === 'GET' && /\btext\/html\b/.test(String(req.headers.accept ?? ''));

async function web(app: FastifyInstance) {
  // Start bundling at once: the first page waits for it only when it comes within a second.
  webBundle().catch((err: unknown) => app.log.error({ err }, 'web interface: bundling failed'));

  const page = async (title: string, reply: FastifyReply) => {
    const b = await webBundle();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell(title, b.script, b.style));
  };
  for (const [path, title] of Object.entries(WEB_PAGES)) {
    app.get(path, { schema: { hide: true } }, (_req, reply) => page(title, reply));
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
    return reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body);
  });
}

// Not encapsulated: its hook answers the negotiated API routes registered elsewhere.
export default fp(web, { name: 'natprod-web' });
