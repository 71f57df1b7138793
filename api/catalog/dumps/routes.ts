/**
 * Dated full dumps over REST (docs/catalog.md, Dumps):
 *
 * - `GET /api/dumps` (public): every complete dump, newest first, from the manifests, with
 *   download URLs;
 * - `GET /api/dumps/{date}/{file}` (public): a dump's file, its `.gz` or its `manifest.json`, with
 *   `Content-Length`, `ETag` (the SHA-256) and single byte ranges (206, 416: range.ts). A whole
 *   file asked for by a client that accepts gzip is sent from its `.gz` (`Content-Encoding: gzip`,
 *   ETag `"<sha256>-gzip"`), a range always from the plain file. Only names listed in that date's
 *   manifest (and `manifest.json`) are served: nothing taken from the URL is used as a path until
 *   it has matched one of them, so no path can leave the dump;
 * - `POST /api/dumps` (admins): starts a dump as a background job (202 + status URL);
 *   `GET /api/dumps/jobs/{id}` (admins) its progress. One dump at a time: per api process in
 *   the embedded mode, across every api process sharing the Redis in the distributed mode
 *   (jobs.ts keeps the records there, so any of them answers the status).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../../shared/config.ts';
import type { JobRunner } from '../../../shared/jobs/types.ts';
import type { BackgroundWork } from '../actions/background.ts';
import type { Molblocks } from '../export/export.ts';
import { runnerMolblocks, runnerMolblocks3D } from '../export/routes.ts';
import { Errors, HttpError } from '../schema/types.ts';
import type { CatalogStore } from '../store/types.ts';
import { DATE, DumpExistsError, listDumps, MANIFEST, readManifest, today, writeDump, type DumpManifest } from './dump.ts';
import { parseRange } from './range.ts';
import { connectSoft } from '../../../shared/redis.ts';
import { accepts, addVary } from '../../plugins/compress.ts';
import { memoryDumpJobs, redisDumpJobs, type DumpJob } from './jobs.ts';

export interface DumpSettings {
  /** DUMP_DIR, else DATA_DIR/dumps. */
  dir: string;
  version: string;
  /** Whether a dump writes the 3D SDF unless the request says (DUMP_3D). */
  with3d: boolean;
  molblocks: Molblocks;
  molblocks3d: Molblocks;
  /** Seconds a finished dump job's record stays readable (JOB_RESULT_TTL). */
  ttlSeconds: number;
  /** Whether a whole file goes out from its `.gz` to clients that accept gzip (COMPRESS_MIN_BYTES > 0). */
  compress: boolean;
  /** Distributed mode: job records and the one-dump-at-a-time lock live here (a `commands` connection). */
  redis?: Redis;
  prefix?: string;
}

export const dumpDir = (config: Config) => config.DUMP_DIR ?? join(config.DATA_DIR, 'dumps');

export function dumpSettings(config: Config, runner: JobRunner, redis?: Redis): DumpSettings {
  return {
    dir: dumpDir(config),
    version: config.RELEASE_VERSION,
    with3d: config.DUMP_3D,
    molblocks: runnerMolblocks(runner),
    molblocks3d: runnerMolblocks3D(runner),
    ttlSeconds: config.JOB_RESULT_TTL,
    compress: config.COMPRESS_MIN_BYTES > 0,
    ...(redis ? { redis, prefix: config.QUEUE_PREFIX } : {}),
  };
}

/** A manifest as listed: each file with its download URL, plus the manifest's own. */
export function dumpView(m: DumpManifest, base: string) {
  const root = `${base}/api/dumps/${m.date}`;
  return {
    ...m,
    manifest_url: `${root}/${MANIFEST}`,
    files: m.files.map((f) => ({ ...f, url: `${root}/${f.name}`, ...(f.gz ? { gz: { ...f.gz, url: `${root}/${f.gz.name}` } } : {}) })),
  };
}

const BODY_KEYS = ['sdf3d', 'force'];

export function dumpRoutes(app: FastifyInstance, opts: { store: CatalogStore; background: BackgroundWork; dumps: DumpSettings }) {
  const { store, background, dumps } = opts;
  const jobs = dumps.redis ? redisDumpJobs(dumps.redis, dumps.prefix ?? 'natprod', dumps.ttlSeconds) : memoryDumpJobs();
  app.addHook('onClose', async () => jobs.close());
  // A lazy connection: connected at start; until Redis answers, dump jobs answer 503.
  if (dumps.redis) app.addHook('onReady', async () => void (await connectSoft(dumps.redis!)));
  const base = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
  const admin = (req: FastifyRequest) => {
    if (req.catalogUser?.role !== 'admin') throw new HttpError(403, 'This action is unauthorized.');
  };

  app.get('/api/dumps', { config: { catalogPublic: true } }, async (req) => ({ data: (await listDumps(dumps.dir)).map((m) => dumpView(m, base(req))) }));

  app.post('/api/dumps', async (req, reply) => {
    admin(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const e = new Errors();
    if (typeof body !== 'object' || Array.isArray(body)) e.add('body', 'The request body must be an object.');
    else {
      for (const k of Object.keys(body)) if (!BODY_KEYS.includes(k)) e.add(k, `The ${k} field is prohibited (use sdf3d and force).`);
      for (const k of BODY_KEYS) if (body[k] !== undefined && typeof body[k] !== 'boolean') e.add(k, `The ${k} field must be true or false.`);
    }
    e.throwIfAny();
    const date = today();
    if (body.force !== true && (await readManifest(dumps.dir, date))) throw new HttpError(409, `A dump dated ${date} exists already: pass "force": true to replace it.`);
    const job: DumpJob = {
      id: randomUUID(),
      status: 'running',
      date,
      sdf3d: typeof body.sdf3d === 'boolean' ? body.sdf3d : dumps.with3d,
      progress: { rows: 0, total: 0 },
      created_at: new Date().toISOString(),
      user_id: req.catalogUser!.id,
    };
    const begun = await jobs.begin(job);
    if (!begun.ok) throw new HttpError(409, `A dump is running already: /api/dumps/jobs/${begun.running}.`);
    background.run(`dump ${job.id}`, async (signal) => {
      try {
        await writeDump({
          store,
          molblocks: dumps.molblocks,
          molblocks3d: dumps.molblocks3d,
          dir: dumps.dir,
          date,
          version: dumps.version,
          with3d: job.sdf3d,
          force: body.force === true,
          signal,
          onProgress: (rows, total) => {
            job.progress = { rows, total };
            jobs.progress(job);
          },
        });
        job.status = 'succeeded';
      } catch (err) {
        job.status = 'failed';
        job.error = signal.aborted ? 'the server stopped during the dump; start it again' : err instanceof DumpExistsError || err instanceof Error ? err.message : String(err);
      } finally {
        job.finished_at = new Date().toISOString();
        await jobs.end(job);
      }
    });
    const statusUrl = `${base(req)}/api/dumps/jobs/${job.id}`;
    return reply.code(202).header('location', statusUrl).send({ job_id: job.id, status: job.status, status_url: statusUrl, date, sdf3d: job.sdf3d });
  });

  app.get('/api/dumps/jobs/:id', async (req) => {
    admin(req);
    const { id } = req.params as { id: string };
    const job = await jobs.get(id);
    if (!job) throw new HttpError(404, `Dump job ${id} not found (unknown, or expired${dumps.redis ? '' : ', or started by another api process'}).`);
    const done = job.status === 'succeeded';
    return { ...job, ...(done ? { manifest_url: `${base(req)}/api/dumps/${job.date}/${MANIFEST}` } : {}) };
  });

  app.get('/api/dumps/:date/:file', { config: { catalogPublic: true } }, async (req, reply) => {
    const { date, file } = req.params as { date: string; file: string };
    if (!DATE.test(date)) throw new HttpError(400, `Invalid dump date ${JSON.stringify(date)}: use YYYY-MM-DD (see GET /api/dumps).`);
    const manifest = await readManifest(dumps.dir, date);
    if (!manifest) throw new HttpError(404, `No dump dated ${date} (see GET /api/dumps).`);
    const entry = manifest.files.find((f) => f.name === file);
    const gzEntry = entry ? undefined : manifest.files.find((f) => f.gz?.name === file);
    if (!entry && !gzEntry && file !== MANIFEST) {
      const names = manifest.files.flatMap((f) => (f.gz ? [f.name, f.gz.name] : [f.name]));
      throw new HttpError(404, `The dump of ${date} has no file ${JSON.stringify(file)}: it has ${[...names, MANIFEST].join(', ')}.`);
    }
    // Only a name from the manifest reaches the file system.
    const name = entry?.name ?? gzEntry?.gz?.name ?? MANIFEST;
    const path = join(dumps.dir, date, name);
    const size = (await stat(path).catch(() => undefined))?.size;
    if (size === undefined) throw new HttpError(404, `The file ${name} of the dump of ${date} is missing.`);
    const sha = entry?.sha256 ?? gzEntry?.gz?.sha256;
    const etag = sha ? `"${sha}"` : undefined;
    let range = parseRange(req.headers.range, size);
    // If-Range: a range only of the version the client has; another version: the whole file.
    const ifRange = req.headers['if-range'];
    if (range.kind !== 'whole' && ifRange !== undefined && ifRange !== etag) range = { kind: 'whole' };
    reply.header('accept-ranges', 'bytes');
    if (range.kind === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${size}`).send({ message: range.reason });
    }
    reply
      .header('content-type', entry ? entry.media_type : gzEntry ? 'application/gzip' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="natprod-${date}-${name}"`);
    if (etag) reply.header('etag', etag);
    if (range.kind === 'partial') {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', String(range.end - range.start + 1))
        .send(createReadStream(path, { start: range.start, end: range.end }));
    }
    // The whole file, to a client that accepts gzip: its .gz as it is (no compression on the fly).
    if (entry?.gz && dumps.compress) {
      addVary(reply);
      const gzPath = join(dumps.dir, date, entry.gz.name);
      if (accepts(req.headers['accept-encoding'], 'gzip') && (await stat(gzPath).catch(() => undefined))?.size === entry.gz.size) {
        return reply
          .header('content-encoding', 'gzip')
          .header('etag', `"${entry.sha256}-gzip"`)
          .header('content-length', String(entry.gz.size))
          .send(createReadStream(gzPath));
      }
    }
    return reply.header('content-length', String(size)).send(createReadStream(path));
  });
}
