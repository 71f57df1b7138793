/**
 * Bulk look-up: `POST /api/molecules/lookup` answers, for a list of COCONUT identifiers,
 * InChIKeys (whole, or the first block), SMILES or names, a CSV with one row per query in input
 * order (match.ts). The list comes as a multipart upload (field `file`; plain text one query a
 * line, or CSV), a text/plain or text/csv body, or JSON `{"queries": [...]}`. A list of more than
 * LOOKUP_SYNC_MAX rows (or `async: true`) runs as a job writing its CSV under DATA_DIR/lookups,
 * on the export job machinery (export/jobs.ts): `GET /api/lookups/{id}` (progress) and
 * `GET /api/lookups/{id}/download`, for the user who asked or an admin. See docs/catalog.md
 * (Bulk look-up).
 *
 * Registered by the catalog plugin as a child plugin (its text/csv body parser and its 413s stay
 * here); the catalog's auth hook, budgets and error handler apply.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import '@fastify/multipart';
import type { Config } from '../../../shared/config.ts';
import type { JobRunner } from '../../../shared/jobs/types.ts';
import type { BackgroundWork } from '../actions/background.ts';
import { can } from '../auth/policy.ts';
import { ExportJobs, jobView, type ExportRecord } from '../export/jobs.ts';
import { MEDIA_TYPES } from '../export/format.ts';
import { molecules } from '../schema/resources.ts';
import { Errors, HttpError } from '../schema/types.ts';
import type { CatalogStore } from '../store/types.ts';
import { INPUT_FORMATS, readCsv, readLines, readOptions, readQueries, type InputFormat, type LookupLimits, type LookupOptions } from './input.ts';
import { csvChunks, lookup, runnerInchikeys, type InchiKeys } from './match.ts';

export interface LookupSettings extends LookupLimits {
  /** Where look-up jobs write their files (DATA_DIR/lookups). */
  dir: string;
  /** Seconds a finished look-up file stays downloadable (JOB_RESULT_TTL). */
  ttlSeconds: number;
  inchikeys: InchiKeys;
}

export function lookupOptions(config: Config, runner: JobRunner): LookupSettings {
  return {
    dir: join(config.DATA_DIR, 'lookups'),
    ttlSeconds: config.JOB_RESULT_TTL,
    maxRows: config.LOOKUP_MAX_ROWS,
    uploadLimit: config.LOOKUP_UPLOAD_LIMIT,
    syncMax: config.LOOKUP_SYNC_MAX,
    inchikeys: runnerInchikeys(runner),
  };
}

export interface LookupRouteOptions {
  store: CatalogStore;
  background: BackgroundWork;
  lookup: LookupSettings;
}

/** The fields a look-up request may carry beside its list. */
const OPTION_KEYS = ['fields', 'kind', 'async', 'column', 'header', 'input_format'];
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

interface Request {
  queries: string[];
  options: LookupOptions;
}

/** The list of a text upload or body: lines, or a CSV column (input_format, else by name or type). */
function readList(text: string, raw: Record<string, unknown>, hint: { filename?: string; mimetype?: string }, maxRows: number): string[] {
  let format: InputFormat;
  if (raw.input_format !== undefined) {
    if (typeof raw.input_format !== 'string' || !INPUT_FORMATS.includes(raw.input_format as InputFormat)) {
      throw new HttpError(422, `The selected input_format ${JSON.stringify(raw.input_format)} is invalid: use lines or csv.`);
    }
    format = raw.input_format as InputFormat;
  } else {
    const csvLike = /\.(csv|tsv)$/i.test(hint.filename ?? '') || /^text\/(csv|tab-separated-values)\b/i.test(hint.mimetype ?? '');
    format = csvLike || raw.column !== undefined ? 'csv' : 'lines';
  }
  if (format === 'lines' && (raw.column !== undefined || raw.header !== undefined)) {
    throw new HttpError(422, 'The column and header fields only apply to a CSV list (input_format csv).');
  }
  return format === 'csv' ? readCsv(text, { column: raw.column, header: raw.header, maxRows }) : readLines(text, maxRows);
}

function checkKeys(raw: Record<string, unknown>, allowed: string[], e: Errors) {
  for (const k of Object.keys(raw)) if (!allowed.includes(k)) e.add(k, `The ${k} field is prohibited.`);
}

async function readRequest(req: FastifyRequest, limits: LookupLimits): Promise<Request> {
  const e = new Errors();
  const query = isObj(req.query) ? (req.query as Record<string, unknown>) : {};
  // Where the catalog is mounted without @fastify/multipart (tests, benchmarks), no upload is read.
  if (typeof req.isMultipart === 'function' && req.isMultipart()) {
    const raw: Record<string, unknown> = {};
    let file: { text: string; filename?: string; mimetype?: string } | undefined;
    try {
      for await (const part of req.parts({ limits: { fileSize: limits.uploadLimit } })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || file) {
            part.file.resume();
            throw new HttpError(422, `Unexpected file field '${part.fieldname}': upload one list as 'file'.`);
          }
          file = { text: (await part.toBuffer()).toString('utf8'), filename: part.filename, mimetype: part.mimetype };
        } else raw[part.fieldname] = part.value;
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const code = (err as { code?: string })?.code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `The uploaded list is larger than LOOKUP_UPLOAD_LIMIT (${limits.uploadLimit} bytes): split it.`);
      const status = (err as { statusCode?: number })?.statusCode;
      if (status && status < 500) throw new HttpError(status, (err as Error).message);
      throw new HttpError(400, `Malformed multipart body: ${(err as Error)?.message ?? err}`);
    }
    checkKeys(raw, OPTION_KEYS, e);
    e.throwIfAny();
    if (!file) throw new HttpError(422, "The list is missing: upload it as the multipart file field 'file'.");
    const options = readOptions(raw, e, true);
    e.throwIfAny();
    return { queries: readList(file.text, raw, file, limits.maxRows), options };
  }
  if (typeof req.body === 'string') {
    checkKeys(query, OPTION_KEYS, e);
    const options = readOptions(query, e, true);
    e.throwIfAny();
    return { queries: readList(req.body, query, { mimetype: req.headers['content-type'] }, limits.maxRows), options };
  }
  if (!isObj(req.body)) {
    throw new HttpError(422, 'Send the list as a multipart upload (field file), a text/plain or text/csv body, or JSON {"queries": [...]}.');
  }
  const body = req.body;
  checkKeys(body, ['queries', 'fields', 'kind', 'async'], e);
  if (body.queries === undefined) e.add('queries', 'The queries field is required.');
  const queries = body.queries === undefined ? [] : readQueries(body.queries, limits.maxRows, e);
  const options = readOptions(body, e);
  e.throwIfAny();
  return { queries, options };
}

export async function lookupPlugin(app: FastifyInstance, opts: LookupRouteOptions) {
  const { store, background } = opts;
  const settings = opts.lookup;
  const jobs = new ExportJobs({ dir: settings.dir, ttlSeconds: settings.ttlSeconds, background });
  app.addHook('onReady', async () => {
    await jobs.start().catch((err: unknown) => app.log.warn({ err }, `lookups: cannot use ${settings.dir}; look-up jobs will fail until it can be created`));
  });
  app.addHook('onClose', async () => jobs.close());

  // CSV and TSV bodies arrive as text, as text/plain does.
  app.addContentTypeParser(['text/csv', 'text/tab-separated-values'], { parseAs: 'string', bodyLimit: settings.uploadLimit }, (_req, body, done) => done(null, body));
  // A body over the limit: a 413 naming the setting (the catalog's handler answers it).
  app.setErrorHandler((err) => {
    if ((err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new HttpError(413, `The list is larger than LOOKUP_UPLOAD_LIMIT (${settings.uploadLimit} bytes): split it.`);
    }
    throw err;
  });

  const baseUrl = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
  const view = (req: FastifyRequest, rec: ExportRecord) => jobView(rec, `${baseUrl(req)}/api/lookups/${rec.id}/download`, { format: false });
  const owned = async (req: FastifyRequest): Promise<ExportRecord> => {
    const { id } = req.params as { id: string };
    const rec = await jobs.get(id);
    if (!rec) throw new HttpError(404, `Look-up ${id} not found (unknown, or expired).`);
    const user = req.catalogUser!;
    if (rec.user_id !== user.id && user.role !== 'admin') throw new HttpError(403, 'This action is unauthorized.');
    return rec;
  };

  app.post('/api/molecules/lookup', { bodyLimit: settings.uploadLimit }, async (req, reply) => {
    const { queries, options } = await readRequest(req, settings);
    if (!queries.length) throw new HttpError(422, 'The list is empty: give at least one query.');
    if (!can(req.catalogUser, 'viewAny', undefined, molecules)) throw new HttpError(403, 'This action is unauthorized.');
    const filename = `natprod-lookup-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`;
    if (options.async || queries.length > settings.syncMax) {
      const rec = await jobs.submit({ format: 'csv', filename, total: queries.length, userId: req.catalogUser!.id }, async function* (signal, onRows) {
        const rows = await lookup(queries, options, { store, inchikeys: settings.inchikeys, signal, onProgress: onRows });
        yield* csvChunks(rows, options.fields);
      });
      const statusUrl = `${baseUrl(req)}/api/lookups/${rec.id}`;
      return reply.code(202).header('location', statusUrl).send({ job_id: rec.id, status: rec.status, status_url: statusUrl, total: queries.length });
    }
    const rows = await lookup(queries, options, { store, inchikeys: settings.inchikeys });
    return reply
      .header('content-type', MEDIA_TYPES.csv)
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('x-total-count', String(rows.length))
      .send(Readable.from(csvChunks(rows, options.fields)));
  });
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/molecules/lookup',
    handler: async (req, reply) => reply.code(405).send({ message: `The ${req.method} method is not supported for route api/molecules/lookup. Supported methods: POST.` }),
  });

  app.get('/api/lookups/:id', async (req) => view(req, await owned(req)));

  app.get('/api/lookups/:id/download', async (req, reply) => {
    const rec = await owned(req);
    if (rec.status !== 'succeeded') {
      const why = rec.status === 'failed' ? `failed: ${rec.error ?? 'unknown error'}` : `${rec.status} (${rec.rows} of ${rec.total} rows answered); poll /api/lookups/${rec.id}`;
      throw new HttpError(409, `The look-up is not ready: ${why}.`);
    }
    return reply
      .header('content-type', MEDIA_TYPES.csv)
      .header('content-disposition', `attachment; filename="${rec.filename}"`)
      .header('content-length', String(rec.size))
      .send(jobs.open(rec));
  });
}
