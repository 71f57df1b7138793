/**
 * Health routes. `/health` answers natprod's status: the version, the job runner and store in
 * use, and each component's state as the composition root reports it (`services.health()`: demo
 * import, structure-search index, OPSIN, toolkits). The original service's router paths
 * (`/latest/chem`, `/v1/convert/health` ...) answer exactly what it answers there,
 * `{"status": "OK"}`, for clients that compare the whole body (its own tests do). The prefixes
 * come from the app, so this plugin knows no route module.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

const ROUTERS = ['chem', 'convert', 'depict', 'tools', 'ocsr'];

export default async function healthRoutes(app: FastifyInstance, opts: { services: Services; prefixes: readonly string[] }) {
  const { services } = opts;
  const { config } = services;
  const health = async () => ({
    status: 'OK',
    version: config.RELEASE_VERSION,
    jobs: services.runner.kind,
    store: config.MONGO_URL ? 'mongo' : 'embedded',
    // Where people start: the web interface's search page, and the API documentation (docs/web.md).
    links: { web: '/search', docs: '/docs' },
    ...services.health(),
  });
  app.get('/health', health);
  const ok = async () => ({ status: 'OK' });
  for (const prefix of opts.prefixes) {
    for (const r of ROUTERS) {
      app.get(`${prefix}/${r}/health`, ok);
      app.get(`${prefix}/${r}`, ok);
    }
  }
}
