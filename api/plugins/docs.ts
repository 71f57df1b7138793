/**
 * Documentation and static pages: Swagger UI at /docs and at /latest/docs (the original service's
 * address and default HOMEPAGE_URL), the OpenAPI document at /openapi.json
 * (built from the operation registry), the `GET /` redirect, and the 3D viewer's script, served
 * by us so the viewer page works offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { VIEWER_SCRIPT } from '../../shared/chem/depict/depict3d.ts';
import type { Config } from '../../shared/config.ts';
import { buildOpenApi } from '../openapi/index.ts';
import { withoutWebPages } from '../openapi/web.ts';

/** Where Swagger UI is served: ours, and the original service's (see api/plugins/security.ts). */
export const DOCS_PREFIXES = ['/docs', '/latest/docs'] as const;

/** A URL of the documentation pages (Swagger UI, its assets and its OpenAPI copy). */
export const isDocsUrl = (url: string) => DOCS_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

async function docs(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const document = buildOpenApi(config.RELEASE_VERSION);
  // Swagger UI's copy leaves out the web interface's pages (api/openapi/web.ts says why).
  const uiDocument = withoutWebPages(document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  // The same page, its assets and its /json under both prefixes. Each copy in a context of its
  // own: the plugin decorates the instance it is registered in, which cannot happen twice.
  for (const routePrefix of DOCS_PREFIXES) {
    await app.register(async (scope) => scope.register(swaggerUi, { routePrefix, transformSpecification: () => uiDocument, transformSpecificationClone: false }));
  }
  app.get('/openapi.json', { schema: { hide: true } }, async () => document);
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect(config.HOMEPAGE_URL, 307));

  const viewer = createRequire(import.meta.url).resolve('3dmol/build/3Dmol-min.js');
  let viewerJs: Buffer | undefined;
  app.get(VIEWER_SCRIPT, async (_req, reply) => {
    viewerJs ??= await readFile(viewer);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(viewerJs);
  });
}

// Not encapsulated: @fastify/swagger must see the routes registered after it.
export default fp(docs, { name: 'natprod-docs' });
