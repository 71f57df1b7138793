/**
 * Browser-facing protections: CORS (@fastify/cors) and security headers (helmet, the library
 * that @fastify/helmet wraps, applied directly so that its middleware is built once).
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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import helmet from 'helmet';
import type { Config } from '../../shared/config.ts';
import { dataPolicy, pagePolicy, serialize } from './csp.ts';

const SELF = ["'self'"];
/** Catalog searches are reads sent as POST: `/api/<resource>/search`, `/api/search`. */
const SEARCH = /^\/api\/(?:[^/?]+\/)?search(?:\?|$)/;
const PUBLIC_METHODS = 'GET,HEAD,POST,DELETE';
const EXPOSED = ['Location', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Mcp-Session-Id'];

type Surface = 'public' | 'catalog' | 'admin';
const surfaceOf = (url: string): Surface => (url.startsWith('/api/') ? 'catalog' : url.startsWith('/admin/') || url === '/admin' ? 'admin' : 'public');

async function security(app: FastifyInstance, opts: { config: Config }) {
  const origins = opts.config.CORS_ORIGINS;
  const anyOrigin = origins.includes('*');
  const named = new Set(origins.filter((o) => o !== '*'));

  const corsFor = (req: FastifyRequest): FastifyCorsOptions => {
    const origin = req.headers.origin;
    const closed = { origin: false };
    if (!origin) return closed;
    const surface = surfaceOf(req.url);
    if (surface === 'admin') return closed;
    const base = { exposedHeaders: EXPOSED, maxAge: 600, credentials: false };
    const method = String(req.method === 'OPTIONS' ? (req.headers['access-control-request-method'] ?? '') : req.method).toUpperCase();
    const read = method === 'GET' || method === 'HEAD' || (method === 'POST' && SEARCH.test(req.url));
    if (surface === 'catalog' && !read) {
      return named.has(origin) ? { ...base, origin, methods: 'GET,HEAD,POST,DELETE' } : closed;
    }
    if (!anyOrigin && !named.has(origin)) return closed;
    return { ...base, origin: anyOrigin ? '*' : origin, methods: surface === 'catalog' ? 'GET,HEAD,POST' : PUBLIC_METHODS };
  };
  // The callback form of the delegator: no promise per request.
  await app.register(cors, { delegator: (req, cb) => cb(null, corsFor(req)) });

  // Frames: public pages (the 3D viewer) may be embedded where CORS lets their data be read.
  const publicFrames = anyOrigin ? ['*'] : [SELF[0]!, ...named];
  const publicData = serialize(dataPolicy(publicFrames));
  const framesFor = (url: string) => (surfaceOf(url) === 'public' && !url.startsWith('/docs') ? publicFrames : SELF);
  // helmet's middleware, built once: @fastify/helmet re-creates it on every request (parsing the
  // CSP directives each time), which cost 9 % of the api's main thread at saturation.
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: dataPolicy(SELF) },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  app.addHook('onRequest', (req, reply, done) => headers(req.raw, reply.raw, (err) => done(err as Error | undefined)));
  app.addHook('onSend', async (req, reply, payload) => {
    const frames = framesFor(req.url);
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const thirdParty = req.url.startsWith('/docs') || surfaceOf(req.url) === 'admin';
      reply.header('content-security-policy', pagePolicy(String(payload), frames, thirdParty));
    } else if (frames !== SELF) {
      reply.header('content-security-policy', publicData);
    }
    // X-Frame-Options cannot name other sites: where frame-ancestors opens framing, it goes.
    if (frames !== SELF) reply.raw.removeHeader('x-frame-options');
    return payload;
  });
}

export default fp(security, { name: 'natprod-security' });
