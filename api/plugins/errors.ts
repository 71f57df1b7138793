/**
 * Error answers outside the catalog (which has its own Laravel-shaped handler): FastAPI's
 * `{"detail": ...}` for everything, 404 `{"detail":"Not Found"}`, a JSON body that does not parse
 * FastAPI's 422 `json_invalid`, and never a stack trace.
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
      // A JSON body that does not parse: FastAPI's 422 `json_invalid` (the original's answer; its
      // tests post `INVALID_INPUT` as JSON and expect 422), not Fastify's 400.
      // MCP's transports keep the 400 of a JSON-RPC parse error.
      if ((err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') && !/\/mcp(\/|\?|$)/.test(req.url)) {
        return reply.code(422).send({ detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: err.message } }] });
      }
      // Fastify's own client errors: body too large, unsupported media type, ...
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
