/**
 * Browser-facing protections: CORS (one onRequest hook, below) and security headers (helmet, the library
 * that @fastify/helmet wraps: its headers are taken once at start and set on each reply).
 *
 * CORS, from CORS_ORIGINS (default `*`):
 * - the public surface (chemistry, jobs, MCP, docs, catalog reads and searches) is open to `*` or
 *   the listed origins, without credentials, as the original chemistry service was;
 * - catalog writes (any other method under /api: mutate, actions, delete, login, register;
 *   preflights included) get CORS headers only for origins listed by name: `*` does not open
 *   them, and a refused preflight gets no headers;
 * - Bull Board (/admin) gets none.
 *
 * Headers: helmet's set, with Cross-Origin-Resource-Policy `cross-origin` (depictions are embedded
 * by other sites' pages) and a Content-Security-Policy per kind of answer (api/plugins/csp.ts):
 * a locked-down one for data (JSON, SVG, text), and for HTML pages one that allows this origin's
 * scripts and styles plus the SHA-256 of each inline script and style of that very page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { Config } from '../../shared/config.ts';
import { dataPolicy, pagePolicy } from './csp.ts';
import { isDocsUrl } from './docs.ts';

const SELF = ["'self'"];
/** Catalog searches are reads sent as POST: `/api/<resource>/search`, `/api/search`. */
const SEARCH = /^\/api\/(?:[^/?]+\/)?search(?:\?|$)/;
const PUBLIC_METHODS = 'GET,HEAD,POST,DELETE';
const EXPOSED = ['Location', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Mcp-Session-Id'].join(', ');

type Surface = 'public' | 'catalog' | 'admin';
const surfaceOf = (url: string): Surface => (url.startsWith('/api/') ? 'catalog' : url.startsWith('/admin/') || url === '/admin' ? 'admin' : 'public');

async function security(app: FastifyInstance, opts: { config: Config }) {
  const origins = opts.config.CORS_ORIGINS;
  const anyOrigin = origins.includes('*');
  const named = new Set(origins.filter((o) => o !== '*'));

  /** The CORS answer for a request: the headers to add, or null when CORS stays closed. */
  const corsFor = (req: FastifyRequest, origin: string): { allowOrigin: string; methods: string } | null => {
    const surface = surfaceOf(req.url);
    if (surface === 'admin') return null;
    const method = String(req.method === 'OPTIONS' ? (req.headers['access-control-request-method'] ?? '') : req.method).toUpperCase();
    const read = method === 'GET' || method === 'HEAD' || (method === 'POST' && SEARCH.test(req.url));
    if (surface === 'catalog' && !read) return named.has(origin) ? { allowOrigin: origin, methods: PUBLIC_METHODS } : null;
    if (!anyOrigin && !named.has(origin)) return null;
    return { allowOrigin: anyOrigin ? '*' : origin, methods: surface === 'catalog' ? 'GET,HEAD,POST' : PUBLIC_METHODS };
  };
  // CORS in one hook, decided per request from the policy above (@fastify/cors's per-request
  // delegator rebuilt and merged its options object twice on every request, with or without an
  // Origin header: 3.6 % of the api's main thread at saturation). A preflight is answered here,
  // before authentication and the other hooks, as browsers send it without credentials.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('vary', 'Origin');
    const origin = req.headers.origin;
    const cors = origin ? corsFor(req, origin) : null;
    if (!cors) return done();
    reply.header('access-control-allow-origin', cors.allowOrigin);
    reply.header('access-control-expose-headers', EXPOSED);
    if (req.method !== 'OPTIONS') return done();
    if (!req.headers['access-control-request-method']) {
      reply.code(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    reply.header('access-control-allow-methods', cors.methods);
    reply.header('vary', 'Origin, Access-Control-Request-Headers');
    const asked = req.headers['access-control-request-headers'];
    if (asked !== undefined) reply.header('access-control-allow-headers', asked);
    reply.header('access-control-max-age', '600');
    reply.code(204).header('content-length', '0').send();
  });
  // Lets every preflight reach the hook above as a matched route; an OPTIONS request the hook did
  // not answer (no Origin, or one CORS refuses) is not found.
  app.options('*', { schema: { hide: true } }, (_req, reply) => reply.callNotFound());

  // Frames: public pages (the 3D viewer) may be embedded where CORS lets their data be read.
  const publicFrames = anyOrigin ? ['*'] : [SELF[0]!, ...named];
  const framesFor = (url: string) => (surfaceOf(url) === 'public' && !isDocsUrl(url) ? publicFrames : SELF);
  // helmet's headers, taken once from its middleware: the values never depend on the request, and
  // running the middleware (eleven `res.setHeader` calls, each validated by Node, then validated
  // again when Fastify writes the head) cost ~5 % of the api's main thread at saturation. Set as
  // Fastify reply headers they are validated once, when the head is written (a hijacked reply
  // copies them, api/mcp/routes.ts). Two sets: framing closed (X-Frame-Options, frame-ancestors
  // 'self') and framing open to the public origins (no X-Frame-Options, which cannot name other
  // sites).
  const closed = helmetHeaders(dataPolicy(SELF));
  const open = { ...helmetHeaders(dataPolicy(publicFrames)) };
  delete open['x-frame-options'];
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(framesFor(req.url) === SELF ? closed : open);
    done();
  });
  // HTML pages get a policy naming their own inline scripts and styles (api/plugins/csp.ts).
  // JSON goes out as `application/json`, as the original service (FastAPI) and COCONUT (Laravel)
  // send it, not Fastify's `application/json; charset=utf-8`: JSON is UTF-8 by definition (RFC
  // 8259 defines no charset parameter), and clients that compare the header exactly (the
  // original's own tests do) see the same answer.
  app.addHook('onSend', (req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (type === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    else if (typeof type === 'string' && type.startsWith('text/html') && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const thirdParty = isDocsUrl(req.url) || surfaceOf(req.url) === 'admin';
      reply.header('content-security-policy', pagePolicy(String(payload), framesFor(req.url), thirdParty));
    }
    done(null, payload);
  });
}

/** The headers helmet's middleware sets, with our options and this CSP, lower-cased names. */
function helmetHeaders(csp: ReturnType<typeof dataPolicy>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: csp },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  let failed: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

export default fp(security, { name: 'natprod-security' });
