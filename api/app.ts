/**
 * The api as one Fastify plugin tree: infrastructure plugins (errors, metrics, multipart, docs),
 * then the domain routes (health, chemistry from the registry, jobs, MCP, catalog). It receives
 * ready services and opens nothing itself, so tests build it around their own runner and store.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import catalogPlugin from './catalog/plugin.ts';
import type { ApiContext } from '../shared/ops/types.ts';
import { VIEWER_SCRIPT } from '../shared/chem/depict3d.ts';
import errors from './plugins/errors.ts';
import metricsPlugin from './plugins/metrics.ts';
import security from './plugins/security.ts';
import limits from './plugins/limits.ts';
import admin from './plugins/admin.ts';
import { chemRoutes, PREFIXES } from './chem/routes.ts';
import { jobRoutes } from './jobs/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { buildOpenApi } from './openapi.ts';
import type { Services } from './services.ts';
import { opsinHealth } from '../shared/names/service.ts';

export interface AppOptions {
  services: Services;
  logger?: boolean | Record<string, unknown>;
}

const ROUTERS = ['chem', 'convert', 'depict', 'tools'];

export async function buildApp({ services, logger = false }: AppOptions): Promise<FastifyInstance> {
  const { config, runner, store, metrics } = services;
  const app = Fastify({
    logger,
    disableRequestLogging: !config.LOG_REQUESTS,
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
  });

  await app.register(errors);
  await app.register(metricsPlugin, { metrics });
  // CORS, security headers, then limits per client (docs/operations.md).
  await app.register(security, { config });
  await app.register(limits, { config, store, runner, registry: metrics.registry });
  await app.register(multipart, { limits: { fileSize: config.UPLOAD_LIMIT, files: 1, fields: 20, fieldSize: 64 * 1024 }, throwFileSizeLimit: true });

  const document = buildOpenApi(config.RELEASE_VERSION);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => document);

  const health = async () => ({
    status: 'OK',
    version: config.RELEASE_VERSION,
    jobs: runner.kind,
    store: config.MONGO_URL ? 'mongo' : 'embedded',
    ...(services.seed ? { demo_import: services.seed.status() } : {}),
    structure_search: services.searchIndex.status(),
    opsin: opsinHealth(),
  });
  app.get('/health', health);
  for (const prefix of PREFIXES) {
    for (const r of ROUTERS) {
      app.get(`${prefix}/${r}/health`, health);
      app.get(`${prefix}/${r}`, health);
    }
  }
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect(config.HOMEPAGE_URL, 307));

  // The 3D viewer page loads its script from us, so it works offline.
  const viewer = createRequire(import.meta.url).resolve('3dmol/build/3Dmol-min.js');
  let viewerJs: Buffer | undefined;
  app.get(VIEWER_SCRIPT, async (_req, reply) => {
    viewerJs ??= await readFile(viewer);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(viewerJs);
  });

  const context = (req: FastifyRequest, prefix: string): ApiContext => ({ runner: app.clientRunner(req), store, baseUrl: `${req.protocol}://${req.host}`, prefix });
  const longWaitMs = config.LONG_TASK_TIMEOUT_MS;
  // An upload sent as JSON (MCP, or REST without multipart) is base64: 4/3 of the file, plus room.
  const uploadBodyLimit = Math.ceil((config.UPLOAD_LIMIT * 4) / 3) + 64 * 1024;
  await app.register(chemRoutes, { context, longWaitMs, uploadBodyLimit });
  await app.register(jobRoutes, { runner });
  await app.register(mcpRoutes, {
    version: config.RELEASE_VERSION,
    context: (req: FastifyRequest) => context(req, ''),
    longWaitMs,
    bodyLimit: Math.max(config.BODY_LIMIT, uploadBodyLimit),
  });
  await app.register(catalogPlugin, { store, derive: services.derive, registration: config.CATALOG_REGISTRATION, structure: services.structure });
  await app.register(admin, { config, store }); // Bull Board at /admin/queues (distributed mode)
  return app;
}
