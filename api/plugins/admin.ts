/**
 * Bull Board at /admin/queues (distributed mode only: in the inline mode there is no queue), for
 * catalog users with the role `admin`. The token is given one of three ways:
 *
 * - `Authorization: Bearer <token>` (scripts, and the board's own API calls from curl);
 * - `GET /admin/queues?token=<token>` (a browser): answered with a cookie holding the token
 *   (`natprod_admin`, HttpOnly, SameSite=Strict, Path=/admin/queues, Secure over https, 8 hours)
 *   and a redirect to the same page without the token in its address;
 * - that cookie, which the browser then sends with the page's own asset and API requests.
 *
 * Every request is checked against the catalog again, so a revoked token or a demoted user loses
 * access at once. SameSite=Strict keeps other sites' pages from using the cookie (the board has
 * actions: retry, promote, clean, remove), and /admin has no CORS. 401 without a valid token,
 * 403 for a user who is not an admin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/config.ts';
import { connectSoft } from '../../shared/redis.ts';
import { QUEUES } from '../../shared/jobs/queues.ts';

export const ADMIN_PATH = '/admin/queues';
export const ADMIN_COOKIE = 'natprod_admin';
const COOKIE_MAX_AGE_S = 8 * 3600;

function cookieToken(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === ADMIN_COOKIE && rest.length) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export default async function admin(app: FastifyInstance, opts: { config: Config; redis?: Redis }) {
  const { config, redis } = opts;
  // Distributed mode only: the composition root's `commands` connection for Bull Board (closed there).
  if (!redis) return;
  if (!(await connectSoft(redis))) app.log.warn('admin: Redis not reachable yet');
  const queues = Object.values(QUEUES).map((name) => new Queue(name, { connection: redis, prefix: config.QUEUE_PREFIX }));
  for (const q of queues) q.on('error', () => {});
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close().catch(() => {})));
  });

  const board = new FastifyAdapter();
  board.setBasePath(ADMIN_PATH);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q)),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'natprod queues' } },
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      const header = req.headers.authorization;
      const query = (req.query ?? {}) as Record<string, unknown>;
      const fromQuery = typeof query.token === 'string' ? query.token : undefined;
      const token = /^Bearer\s+\S+$/.test(header ?? '') ? header!.replace(/^Bearer\s+/, '') : (fromQuery ?? cookieToken(req));
      const user = token ? await app.userOfToken(token) : undefined;
      if (!user) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="natprod-admin"')
          .send({ detail: `Admin token required: open ${ADMIN_PATH}?token=<token> in a browser, or send Authorization: Bearer <token>` });
      }
      if (user.role !== 'admin') return reply.code(403).send({ detail: 'This page is for catalog users with the role admin' });
      if (fromQuery !== undefined && token === fromQuery && req.method === 'GET') {
        const url = new URL(req.url, 'http://x');
        url.searchParams.delete('token');
        const secure = req.protocol === 'https' ? '; Secure' : '';
        return reply
          .header('set-cookie', `${ADMIN_COOKIE}=${encodeURIComponent(token)}; Path=${ADMIN_PATH}; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}${secure}`)
          .header('cache-control', 'no-store')
          .redirect(url.pathname + url.search, 303);
      }
    });
    // The board's page asks Google for its fonts; this service loads nothing from third parties
    // (the CSP would refuse it anyway), so the page falls back to the browser's own fonts.
    scope.addHook('onSend', async (_req, reply, payload) => {
      if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
      return payload.replace(/<link[^>]+href="https:\/\/fonts\.googleapis\.com[^"]*"[^>]*>/g, '');
    });
    await scope.register(board.registerPlugin() as never, { prefix: ADMIN_PATH });
  });
}
