/** HTTP metrics by route template and status class, and the /metrics endpoint. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../../shared/metrics.ts';

export default fp(
  async function metricsPlugin(app: FastifyInstance, opts: { metrics: Metrics }) {
    const { metrics } = opts;
    app.addHook('onResponse', async (req, reply) => {
      // Route templates only (never the raw URL): unmatched paths share one label.
      const route = req.routeOptions.url ?? 'unmatched';
      const labels = { method: req.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    });
    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  },
  { name: 'natprod-metrics' },
);
