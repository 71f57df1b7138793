/**
 * The OpenAPI 3.1 document, served at /openapi.json and by Swagger UI at /docs: every public
 * route with its parameters, request body, answers and error answers. Its parts:
 * - chem.ts: the chemistry operations, from the operation registry (parameters from the zod
 *   schemas the routes validate with, answers from each operation's `answer` schema);
 * - catalog.ts: the Lomkit resource routes, from the resource declarations;
 * - catalog-services.ts: COCONUT's search, accounts, exports, look-ups, imports, dumps;
 * - service.ts: jobs, health, MCP transports, metrics;
 * - components.ts: error bodies, job records, the resources' records.
 * The test suite checks every answer it receives against this document (test/helpers/openapi-check.ts).
 */
import { OPERATIONS } from '../../shared/ops/index.ts';
import { chemOperation } from './chem.ts';
import { componentFilter, resourcePaths } from './catalog.ts';
import { catalogServicePaths } from './catalog-services.ts';
import { servicePaths } from './service.ts';
import { componentSchemas } from './components.ts';
import { addWebPages } from './web.ts';

export { argsJsonSchema } from './chem.ts';

export function buildOpenApi(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = chemOperation(op);
  }
  Object.assign(paths, servicePaths(), resourcePaths(), catalogServicePaths());
  addWebPages(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'natprod',
      version,
      description:
        'Natural-product catalog (COCONUT-style REST API under /api, bearer tokens) and chemistry service. Every chemistry ' +
        'operation is also served under /latest and /v1, and is an MCP tool of the same name at /mcp. The web interface for ' +
        'people (search, compound pages, dereplication, tools) starts at [/search](/search).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Sanctum-style token `<id>|<secret>` (npm run token)' } },
      schemas: { ...componentSchemas(), ...componentFilter },
    },
    paths,
  };
}
