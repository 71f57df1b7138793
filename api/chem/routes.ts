/**
 * REST routes of the chemistry service, generated from the operation registry: every operation
 * under its path unprefixed, under `/latest` and under `/v1` (the spellings of the original
 * service's deployments). Arguments come from the query string, path parameters and, for POST
 * operations, the body the registry declares; they are validated by the operation's schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { AppError } from '../../shared/errors.ts';
import { OPERATIONS } from '../../shared/ops/index.ts';
import type { OpDef } from '../../shared/ops/types.ts';
import type { ApiContext } from './context.ts';
import { contentType, encodeBody, executeOp } from './execute.ts';
import { parseArgs, type ArgSource } from './validate.ts';

export const PREFIXES = ['', '/latest', '/v1'] as const;

export interface ChemRouteOptions {
  context: (req: FastifyRequest, prefix: string) => ApiContext;
  longWaitMs: number;
  /** Body limit of upload operations, whose JSON form carries the file base64-encoded. */
  uploadBodyLimit: number;
}

/** `/chem/chemclass/{jobid}/result` → `/chem/chemclass/:jobid/result` */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

type Raw = Record<string, unknown>;

async function bodyArgs(op: OpDef, req: FastifyRequest): Promise<Raw> {
  const spec = op.body;
  if (!spec) return {};
  if (spec.kind === 'multipart') {
    if (!req.isMultipart()) return isObject(req.body) ? req.body : {};
    const out: Raw = {};
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== spec.field) {
            part.file.resume();
            throw new AppError(422, `Unexpected file field '${part.fieldname}': upload the file as '${spec.field}'`, 'invalid_input');
          }
          const bytes = await part.toBuffer();
          if (spec.magic && !bytes.subarray(0, 1024).includes(spec.magic.bytes)) {
            throw new AppError(400, `Uploaded file must be a ${spec.magic.what} (${part.filename || spec.field} does not start like one)`, 'invalid_input');
          }
          out[spec.into] = bytes.toString('base64');
          if (spec.filenameInto && part.filename) out[spec.filenameInto] = part.filename;
        } else {
          out[part.fieldname] = part.value;
        }
      }
    } catch (e) {
      // The multipart parser's own errors (a body cut short: "Unexpected end of multipart data")
      // carry no status; the limits' errors (413) and ours do.
      if (e instanceof AppError || (e as { statusCode?: number })?.statusCode) throw e;
      throw new AppError(400, `Malformed multipart body: ${(e as Error)?.message ?? e}`, 'invalid_input');
    }
    if (out[spec.into] === undefined) throw new AppError(422, [{ type: 'missing', loc: ['body', spec.field], msg: 'Field required', input: null }], 'invalid_input');
    return out;
  }
  if (spec.kind === 'text') {
    if (typeof req.body === 'string') return { [spec.field]: req.body };
    if (isObject(req.body)) return req.body;
    return {};
  }
  return isObject(req.body) ? req.body : {};
}

function isObject(v: unknown): v is Raw {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);
}

/** `async` is a transport switch of ours, not an argument of any operation. */
function splitAsync(query: Raw): { args: Raw; async: boolean } {
  const { async: flag, ...args } = query;
  const async = typeof flag === 'string' && ['true', '1', 'yes', 'on'].includes(flag.toLowerCase());
  return { args, async };
}

export async function chemRoutes(app: FastifyInstance, opts: ChemRouteOptions) {
  for (const op of OPERATIONS) {
    for (const prefix of PREFIXES) {
      app.route({
        method: op.method,
        url: `${prefix}${fastifyPath(op.path)}`,
        // The rate-limit budget this route counts against (api/plugins/limits.ts).
        config: { budget: op.mode === 'long' ? 'long' : 'quick' },
        ...(op.body?.kind === 'multipart' ? { bodyLimit: opts.uploadBodyLimit } : {}),
        ...(op.body?.kind === 'text' && op.body.maxBytes ? { bodyLimit: op.body.maxBytes } : {}),
        handler: async (req: FastifyRequest, reply: FastifyReply) => {
          const { args: query, async } = splitAsync((req.query ?? {}) as Raw);
          const params = (req.params ?? {}) as Raw;
          const body = await bodyArgs(op, req);
          const source = (k: string): ArgSource => (k in params ? 'path' : k in body ? 'body' : 'query');
          const args = parseArgs(op.args, { ...query, ...body, ...params }, source) as Raw;
          const outcome = await executeOp(op, args, opts.context(req, prefix), { async, longWaitMs: opts.longWaitMs });
          if (outcome.kind === 'job') {
            return reply.code(202).header('location', outcome.submission.status_url).send(outcome.submission);
          }
          if (outcome.headers) reply.headers(outcome.headers);
          return reply.code(outcome.status).type(contentType(outcome.mediaType)).send(encodeBody(outcome.mediaType, outcome.value, op.floats));
        },
      });
    }
  }
}
