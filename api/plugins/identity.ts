/**
 * Who a request comes from, decided in one place (`req.caller`), for every plugin that asks:
 * - `user()`: the catalog user of a valid `Authorization: Bearer <id>|<token>` header, looked up
 *   once per request (catalog routes answer 401 without one; the admin page checks its role);
 * - `key()`: the client a limit counts against: a valid token (as the first 32 hex digits of its
 *   SHA-256, never the token itself), else the client IP (an IPv6 address by its /64, as
 *   @fastify/rate-limit does). Only a token the catalog accepts counts: an invented one would
 *   otherwise buy a fresh budget with every request. Verdicts for keys are cached for a minute so
 *   the hot chemistry routes do not ask the store on every call.
 * `app.userOfToken(token)` checks a token that came another way (the admin page's query or cookie).
 */
import { createHash } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authenticate } from '../catalog/auth/auth.ts';
import type { CatalogStore } from '../catalog/store/types.ts';
import type { CatalogUser } from '../catalog/schema/types.ts';

const TOKEN = /^Bearer\s+(\d+\|\S+)$/;
const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

export interface Caller {
  user(): Promise<CatalogUser | undefined>;
  key(): Promise<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who this request comes from (api/plugins/identity.ts). */
    readonly caller: Caller;
  }
  interface FastifyInstance {
    /** The catalog user of a bare token (`<id>|<secret>`), if it is valid. */
    userOfToken(token: string): Promise<CatalogUser | undefined>;
  }
}

async function identity(app: FastifyInstance, opts: { store: CatalogStore }) {
  const { store } = opts;
  const verdicts = new Map<string, { valid: boolean; until: number }>();
  const callers = new WeakMap<FastifyRequest, Caller>();

  async function validHash(hash: string, header: string): Promise<boolean> {
    const now = Date.now();
    const hit = verdicts.get(hash);
    if (hit && hit.until > now) return hit.valid;
    const ok = !!(await authenticate(store, header).catch(() => undefined));
    if (verdicts.size >= CACHE_MAX) verdicts.clear();
    verdicts.set(hash, { valid: ok, until: now + CACHE_MS });
    return ok;
  }

  function callerOf(req: FastifyRequest): Caller {
    let user: Promise<CatalogUser | undefined> | undefined;
    let key: Promise<string> | undefined;
    return {
      user: () => (user ??= authenticate(store, req.headers.authorization)),
      key: () =>
        (key ??= (async () => {
          const header = req.headers.authorization;
          const m = header ? TOKEN.exec(header) : null;
          if (m) {
            const hash = createHash('sha256').update(m[1]!).digest('hex').slice(0, 32);
            if (await validHash(hash, header!)) return `t:${hash}`;
          }
          return `ip:${normalizeIP(req.ip)}`;
        })()),
    };
  }

  app.decorateRequest('caller', {
    getter(this: FastifyRequest) {
      let c = callers.get(this);
      if (!c) {
        c = callerOf(this);
        callers.set(this, c);
      }
      return c;
    },
  });
  app.decorate('userOfToken', (token: string) => authenticate(store, `Bearer ${token}`));
}

export default fp(identity, { name: 'natprod-identity' });
