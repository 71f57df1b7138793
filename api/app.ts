/**
 * The api as one Fastify plugin tree: infrastructure plugins (errors, compression, metrics,
 * security, limits, multipart, docs), then the routes (health, chemistry from the registry, jobs,
 * MCP, catalog, admin). It receives ready services and opens nothing itself, so tests build it
 * around their own runner and store.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import catalogPlugin from './catalog/plugin.ts';
import { exportOptions } from './catalog/export/routes.ts';
import { dumpSettings } from './catalog/dumps/routes.ts';
import { lookupOptions } from './catalog/lookup/routes.ts';
import type { ApiContext } from './chem/context.ts';
import errors from './plugins/errors.ts';
import compress from './plugins/compress.ts';
import metricsPlugin from './plugins/metrics.ts';
import security from './plugins/security.ts';
import limits from './plugins/limits.ts';
import admin from './plugins/admin.ts';
import { chemRoutes, PREFIXES } from './chem/routes.ts';
import identity from './plugins/identity.ts';
import docs from './plugins/docs.ts';
import web from './web/index.ts';
import healthRoutes from './plugins/health.ts';
import { jobRoutes } from './jobs/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import type { Services } from './services.ts';
import { clientErrorHandler, lingerAfterEarlyAnswers } from './client-error.ts';

export interface AppOptions {
  services: Services;
}

export async function buildApp({ services }: AppOptions): Promise<FastifyInstance> {
  const { config, runner, store, metrics } = services;
  // The process's one logger (shared/log.ts), built by its entry and held by the services.
  const loggerInstance: FastifyBaseLogger = services.log;
  const app = Fastify({
    loggerInstance,
    logController: new LogController({ disableRequestLogging: !config.LOG_REQUESTS }),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    // Requests the HTTP parser refuses (over-long URL or headers, malformed HTTP): a 4xx with a
    // body and `Connection: close`, never a reset (api/client-error.ts).
    clientErrorHandler,
  });
  // A connection closed after an answer sent before its request's body was read (413) lingers.
  lingerAfterEarlyAnswers(app.server);

  await app.register(errors);
  // Before any route: it adds itself to each route as its last onSend hook (docs/operations.md, "Compression").
  await app.register(compress, { minBytes: config.COMPRESS_MIN_BYTES });
  await app.register(metricsPlugin, { metrics });
  // CORS, security headers, then limits per client (docs/operations.md).
  await app.register(security, { config });
  await app.register(identity, { store });
  await app.register(limits, { config, runner, registry: metrics.registry, redis: services.redis('failFast', 'limits') });
  await app.register(multipart, { limits: { fileSize: config.UPLOAD_LIMIT, files: 1, fields: 20, fieldSize: 64 * 1024 }, throwFileSizeLimit: true });

  await app.register(docs, { config });
  await app.register(web); // the web interface's pages (docs/web.md)
  await app.register(healthRoutes, { services, prefixes: PREFIXES });

  const context = (req: FastifyRequest, prefix: string): ApiContext => ({ runner: app.clientRunner(req), config, store, baseUrl: `${req.protocol}://${req.host}`, prefix });
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
    structure: services.structure, // the search_catalog tool
    exports: exportOptions(config, runner), // export_molecules
    imports: services.imports, // import_molecules, import_status
  });
  await app.register(catalogPlugin, {
    store,
    derive: services.derive,
    registration: config.CATALOG_REGISTRATION,
    structure: services.structure,
    exports: exportOptions(config, runner),
    dumps: dumpSettings(config, runner, services.redis('commands', 'dumps')), // distributed mode: dump job records in Redis
    lookup: lookupOptions(config, runner),
    imports: services.imports,
  });
  await app.register(admin, { config, redis: services.redis('commands', 'admin') }); // Bull Board at /admin/queues (distributed mode)
  return app;
}
