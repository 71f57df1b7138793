/** Job polling and cancellation, the same for both runners: `GET|DELETE /jobs/{id}`. */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import { PREFIXES } from '../chem/routes.ts';

export async function jobRoutes(app: FastifyInstance, opts: { runner: JobRunner }) {
  const { runner } = opts;
  const notFound = (id: string) => new AppError(404, `Job ${id} not found (unknown, or its result expired)`, 'not_found');
  for (const prefix of PREFIXES) {
    app.get(`${prefix}/jobs/:id`, { config: { budget: 'quick' } }, async (req) => {
      const { id } = req.params as { id: string };
      const rec = await runner.get(id);
      if (!rec) throw notFound(id);
      return rec;
    });
    app.delete(`${prefix}/jobs/:id`, { config: { budget: 'quick' } }, async (req) => {
      const { id } = req.params as { id: string };
      const rec = await runner.cancel(id);
      if (!rec) throw notFound(id);
      return rec;
    });
  }
}
