/**
 * Catalog routes under /api (Lomkit-style): detail, search, mutate, actions, delete per resource,
 * plus /api/auth/login, /api/auth/logout and /api/auth/register (403 unless switched on).
 * Encapsulated: its auth hook and error handler apply to these routes only. Check order:
 * 401 → 404/405 → 422 → 403.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { runAction } from './actions/actions.ts';
import { login, revokeToken } from './auth/auth.ts';
import { catalogBudget } from '../plugins/limits.ts';
import identity from '../plugins/identity.ts';
import { BackgroundWork } from './actions/background.ts';
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import { mutate } from './mutate/mutate.ts';
import { destroy, detail } from './operations.ts';
import { can } from './auth/policy.ts';
import { register } from './auth/register.ts';
import { RESOURCES, ROUTED } from './schema/resources.ts';
import { search, searchRoutes, type StructureSearch, validateSearch } from './search/index.ts';
import type { CatalogStore } from './store/types.ts';
import { Errors, HttpError, ValidationError, type CatalogUser } from './schema/types.ts';
import { exportRoutes, type ExportOptions } from './export/routes.ts';
import { dumpRoutes, type DumpSettings } from './dumps/routes.ts';
import { lookupPlugin, type LookupSettings } from './lookup/routes.ts';
import { recordAudits } from './audit/routes.ts';
import type { ImportJobs } from './import/jobs.ts';
import { importRoutes } from './import/routes.ts';

export interface CatalogPluginOptions {
  store: CatalogStore;
  /** The `derive_molecule` job; rejects with a 422 AppError for an unreadable structure. */
  derive: (i: DeriveInput) => Promise<DerivedMolecule>;
  /**
   * Where queued actions (recompute-properties) run after the answer. Default: one owned by the
   * plugin, stopped and awaited when the app closes. Tests pass their own to await `idle()`.
   */
  background?: BackgroundWork;
  /** Self-registration (`POST /api/auth/register`, CATALOG_REGISTRATION); off: that route answers 403. */
  registration?: boolean;
  /** Structure search (`POST /api/search`, structure operators in searches); absent: not offered. */
  structure?: StructureSearch;
  /** Exports (`POST /api/molecules/export`, `/api/exports/{id}`); absent: not offered. */
  exports?: ExportOptions;
  /** Bulk look-up (`POST /api/molecules/lookup`, `/api/lookups/{id}`); absent: not offered. */
  lookup?: LookupSettings;
  /** Dated full dumps (`/api/dumps`); absent: not offered. */
  dumps?: DumpSettings;
  /** Imports as jobs (`/api/imports`, admins); absent: not offered. */
  imports?: ImportJobs;
}

export const REGISTRATION_OFF = 'Self-registration is disabled on this server: ask its administrator for an account.';

declare module 'fastify' {
  interface FastifyRequest {
    catalogUser?: CatalogUser;
  }
  interface FastifyContextConfig {
    catalogPublic?: boolean;
  }
}

const ALL = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export default async function catalogPlugin(app: FastifyInstance, opts: CatalogPluginOptions) {
  const { store, derive } = opts;
  const background = opts.background ?? new BackgroundWork(app.log);
  // Queued work ends (or stops between items) before app.close() resolves; then the store may close.
  app.addHook('onClose', () => background.close());

  // Who calls: the app's identity plugin, or this plugin's own where the catalog is mounted alone.
  if (!app.hasRequestDecorator('caller')) await app.register(identity, { store });

  // Every catalog route counts against a rate-limit budget: writes, or quick for reads and searches.
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method[0]! : route.method;
    route.config = { ...route.config, budget: route.config?.budget ?? catalogBudget(method, route.url) };
  });

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.routeOptions.config?.catalogPublic) return;
    const user = await req.caller.user();
    if (!user) return reply.code(401).send({ message: 'Unauthenticated.' });
    req.catalogUser = user;
  });

  app.setErrorHandler((err: unknown, req, reply) => {
    if (err instanceof ValidationError) return reply.code(422).send(err.body);
    if (err instanceof HttpError) return reply.code(err.status).send({ message: err.message });
    const ae = AppError.from(err);
    if (ae && ae.status !== 500) {
      // 4xx from a derivation; 503/504 when the job runner is down or a derivation timed out
      const msg = typeof ae.detail === 'string' ? ae.detail : JSON.stringify(ae.detail);
      if (ae.status >= 500) req.log.warn({ err }, 'catalog: derivation unavailable');
      return reply.code(ae.status).send(ae.status === 422 ? { message: msg, errors: { structure: [msg] } } : { message: msg });
    }
    const fe = err as { statusCode?: number; message?: string };
    if (fe.statusCode && fe.statusCode < 500) return reply.code(fe.statusCode).send({ message: fe.message });
    req.log.error({ err }, 'catalog error');
    return reply.code(500).send({ message: 'Server Error' });
  });

  app.post('/api/auth/login', { config: { catalogPublic: true } }, async (req, reply) => {
    const b = (req.body ?? {}) as { email?: unknown; password?: unknown };
    const token = await login(store, b.email, b.password);
    if (!token) return reply.code(401).send({ message: 'Invalid login details' });
    return { access_token: token, token_type: 'Bearer' };
  });

  app.post('/api/auth/register', { config: { catalogPublic: true } }, async (req, reply) => {
    if (!opts.registration) throw new HttpError(403, REGISTRATION_OFF);
    return reply.code(201).send(await register(store, req.body));
  });

  app.get('/api/auth/logout', async (req) => {
    if (req.catalogUser?.tokenId) await revokeToken(store, req.catalogUser.tokenId);
    return { logout: 'Successful' };
  });

  if (opts.structure) searchRoutes(app, opts.structure);
  if (opts.exports) exportRoutes(app, { store, structure: opts.structure, background, exports: opts.exports });
  if (opts.dumps) dumpRoutes(app, { store, background, dumps: opts.dumps });
  if (opts.lookup) await app.register(lookupPlugin, { store, background, lookup: opts.lookup });
  if (opts.imports) importRoutes(app, opts.imports);

  for (const name of ROUTED) {
    const r = RESOURCES[name];
    const base = `/api/${name}`;
    const ctx = (req: FastifyRequest) => ({ store, derive, background, user: req.catalogUser, structure: opts.structure?.resolve });
    const viewAny = (req: FastifyRequest) => {
      if (!can(req.catalogUser, 'viewAny', undefined, r)) throw new HttpError(403, 'This action is unauthorized.');
    };

    app.get(base, async (req) => {
      viewAny(req);
      return detail(r, req.catalogUser);
    });
    // A read-only route (properties: written through the molecule) refuses writes as Lomkit's policy does.
    const writable = (req: FastifyRequest) => {
      if (r.schema.readOnlyRoute) throw new HttpError(403, 'This action is unauthorized.');
      return req;
    };
    app.delete(base, async (req) => destroy(r, writable(req).body, ctx(req)));
    app.route({
      method: ALL.filter((m) => m !== 'GET' && m !== 'DELETE'),
      url: base,
      handler: async (req, reply) =>
        reply.code(405).send({ message: `The ${req.method} method is not supported for route api/${name}. Supported methods: GET, HEAD, DELETE.` }),
    });
    app.post(`${base}/search`, async (req) => {
      const e = new Errors();
      const body = (req.body ?? {}) as Record<string, unknown>;
      const s = validateSearch(r, body.search, 'search', e);
      e.throwIfAny();
      viewAny(req);
      return search(r, s, ctx(req));
    });
    app.post(`${base}/mutate`, async (req) => mutate(r, writable(req).body, ctx(req)));
    if (r.collection) app.get(`${base}/:id/audits`, async (req) => recordAudits(r, (req.params as { id: string }).id, ctx(req)));
    app.post(`${base}/actions/:action`, async (req) => runAction(r, (req.params as { action: string }).action, req.body, ctx(req)));
    for (const suffix of ['search', 'mutate']) {
      app.route({
        method: ALL.filter((m) => m !== 'POST'),
        url: `${base}/${suffix}`,
        handler: async (req, reply) =>
          reply.code(405).send({ message: `The ${req.method} method is not supported for route api/${name}/${suffix}. Supported methods: POST.` }),
      });
    }
  }
}
