/**
 * Who a request comes from, for limits: a valid catalog bearer token (as the first 32 hex digits
 * of its SHA-256, never the token itself), else the client IP (an IPv6 address by its /64, as
 * @fastify/rate-limit does). Only a token the catalog accepts counts: an invented one would
 * otherwise buy a fresh budget with every request. Verdicts are cached for a minute so the hot
 * chemistry routes do not ask the store on every call.
 */
import { createHash } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { authenticate } from '../catalog/auth/auth.ts';
import type { CatalogStore } from '../catalog/store/types.ts';

const TOKEN = /^Bearer\s+(\d+\|\S+)$/;
const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

export type ClientKey = (req: FastifyRequest) => Promise<string>;

export function clientKeys(store: CatalogStore): ClientKey {
  const verdicts = new Map<string, { valid: boolean; until: number }>();
  const memo = new WeakMap<FastifyRequest, Promise<string>>();

  async function valid(hash: string, header: string): Promise<boolean> {
    const now = Date.now();
    const hit = verdicts.get(hash);
    if (hit && hit.until > now) return hit.valid;
    const ok = !!(await authenticate(store, header).catch(() => undefined));
    if (verdicts.size >= CACHE_MAX) verdicts.clear();
    verdicts.set(hash, { valid: ok, until: now + CACHE_MS });
    return ok;
  }

  async function keyOf(req: FastifyRequest): Promise<string> {
    const header = req.headers.authorization;
    const m = header ? TOKEN.exec(header) : null;
    if (m) {
      const hash = createHash('sha256').update(m[1]!).digest('hex').slice(0, 32);
      if (await valid(hash, header!)) return `t:${hash}`;
    }
    return `ip:${normalizeIP(req.ip)}`;
  }

  return (req) => {
    let key = memo.get(req);
    if (!key) {
      key = keyOf(req);
      memo.set(req, key);
    }
    return key;
  };
}
