/**
 * Error answers outside the catalog (which has its own Laravel-shaped handler): FastAPI's
 * `{"detail": ...}` for everything, 404 `{"detail":"Not Found"}`, and never a stack trace.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../shared/errors.ts';

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((err: FastifyError, req, reply) => {
      const app_ = AppError.from(err);
      if (app_) {
        if (app_.status >= 500) req.log.error({ err: app_.detail }, 'operation failed');
        return reply.code(app_.status === 499 ? 409 : app_.status).send({ detail: app_.detail });
      }
      // Fastify's own client errors: bad JSON, body too large, unsupported media type, ...
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return reply.code(err.statusCode).send({ detail: err.message });
      }
      req.log.error({ err }, 'unhandled error');
      return reply.code(500).send({ detail: 'Internal Server Error' });
    });
    app.setNotFoundHandler((req, reply) => {
      if (req.url.startsWith('/api/')) return reply.code(404).send({ message: 'Not Found' });
      return reply.code(404).send({ detail: 'Not Found' });
    });
  },
  { name: 'natprod-errors' },
);
