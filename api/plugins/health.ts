/**
 * Health routes: `/health`, and the original service's `/<prefix>/<router>/health` and bare
 * router paths (`/latest/chem`, `/v1/convert/health` ...), all answering the same status: the
 * version, the job runner and store in use, and the progress of background work (demo import,
 * structure-search index, OPSIN).
 */
import type { FastifyInstance } from 'fastify';
import { opsinHealth } from '../../shared/names/service.ts';
import type { Services } from '../services.ts';
import { PREFIXES } from '../chem/routes.ts';

const ROUTERS = ['chem', 'convert', 'depict', 'tools'];

export default async function healthRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  const { config } = services;
  const health = async () => ({
    status: 'OK',
    version: config.RELEASE_VERSION,
    jobs: services.runner.kind,
    store: config.MONGO_URL ? 'mongo' : 'embedded',
    ...(services.seed ? { demo_import: services.seed.status() } : {}),
    structure_search: services.searchIndex.status(),
    opsin: opsinHealth(config),
  });
  app.get('/health', health);
  for (const prefix of PREFIXES) {
    for (const r of ROUTERS) {
      app.get(`${prefix}/${r}/health`, health);
      app.get(`${prefix}/${r}`, health);
    }
  }
}
