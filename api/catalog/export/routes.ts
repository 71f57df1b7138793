/**
 * Catalog exports: `POST /api/molecules/export` streams the molecules matching a search (and
 * optionally a structure query) as SMILES, SDF (2D, or 3D with `sdf3d`) or CSV; a large one (more than EXPORT_SYNC_MAX
 * molecules) or one asked for with `"async": true` becomes a job (202) whose progress is at
 * `GET /api/exports/{id}` and whose file is at `GET /api/exports/{id}/download`, for the user who
 * asked for it or an admin. See docs/catalog.md (Exports).
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../shared/config.ts';
import { AppError } from '../../../shared/errors.ts';
import type { BackgroundWork } from '../actions/background.ts';
import { exportFilename, exportText, planExport, validateExportRequest, type Molblocks } from './export.ts';
import { MEDIA_TYPES } from './format.ts';
import { ExportJobs, jobView, type ExportRecord } from './jobs.ts';
import { batched } from '../batches.ts';
import { can } from '../auth/policy.ts';
import { molecules } from '../schema/resources.ts';
import type { CatalogStore } from '../store/types.ts';
import type { StructureSearch } from '../search/index.ts';
import { HttpError } from '../schema/types.ts';
import type { JobRunner } from '../../../shared/jobs/types.ts';

export interface ExportOptions {
  /** Where export jobs write their files (DATA_DIR/exports). */
  dir: string;
  /** More matching molecules than this: the export runs as a job (EXPORT_SYNC_MAX). */
  syncMax: number;
  /** Seconds a finished export job stays downloadable (JOB_RESULT_TTL). */
  ttlSeconds: number;
  molblocks: Molblocks;
  /** 3D molblocks (`sdf3d`), null for a molecule whose embedding failed. */
  molblocks3d: Molblocks;
}

/** SMILES per `catalog_molblocks` task, and tasks in flight for one page of an export. */
const MOLBLOCK_BATCH = 100;
const MOLBLOCK_IN_FLIGHT = 4;

/** Molblocks from the chemistry threads, in batches (a structure that faults alone comes back null). */
export function runnerMolblocks(runner: JobRunner): Molblocks {
  return batched((smiles) => runner.runTask('catalog_molblocks', 'catalog_molblocks', { smiles }), MOLBLOCK_BATCH, MOLBLOCK_IN_FLIGHT);
}

/** 3D embeddings in flight for one page (one SMILES per `generate_3d_coordinates` task). */
const EMBED_IN_FLIGHT = 8;
/** Time limit of one molecule's embedding (ETKDG-like search plus MMFF94s+ takes seconds for large natural products). */
export const EMBED_TIMEOUT_MS = 60_000;

/**
 * 3D molblocks (without hydrogens) from the chemistry threads: the task of `/convert/mol3D`,
 * `generate_3d_coordinates`, one SMILES per task, `inFlight` at a time. A molecule whose
 * embedding fails (unreadable, over the 3D size limit, no conformer keeping its stereo, or
 * longer than `timeoutMs` on its thread) comes back null; any other failure (the runner is
 * down) fails the export. The wait for a task covers its time in the queue behind the others.
 */
export function runnerMolblocks3D(runner: JobRunner, opts: { inFlight?: number; timeoutMs?: number } = {}): Molblocks {
  const inFlight = opts.inFlight ?? EMBED_IN_FLIGHT;
  const timeoutMs = opts.timeoutMs ?? EMBED_TIMEOUT_MS;
  const waitMs = timeoutMs * (inFlight + 1);
  const one = async (smiles: string): Promise<string | null> => {
    if (!smiles.trim()) return null;
    try {
      return await runner.runTask('generate_3d_coordinates', 'generate_3d_coordinates', { smiles }, { timeoutMs, waitMs });
    } catch (e) {
      const ae = AppError.from(e);
      if (ae?.isClientError || ae?.code === 'timeout') return null;
      throw e;
    }
  };
  return async (smiles, signal) => {
    const out: (string | null)[] = new Array(smiles.length).fill(null);
    let next = 0;
    const lane = async () => {
      while (next < smiles.length && !signal?.aborted) {
        const i = next++;
        out[i] = await one(smiles[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, smiles.length) }, lane));
    return out;
  };
}

export function exportOptions(config: Config, runner: JobRunner): ExportOptions {
  return {
    dir: join(config.DATA_DIR, 'exports'),
    syncMax: config.EXPORT_SYNC_MAX,
    ttlSeconds: config.JOB_RESULT_TTL,
    molblocks: runnerMolblocks(runner),
    molblocks3d: runnerMolblocks3D(runner),
  };
}

export interface ExportRouteOptions {
  store: CatalogStore;
  structure?: StructureSearch;
  background: BackgroundWork;
  exports: ExportOptions;
}

const disposition = (filename: string) => `attachment; filename="${filename}"`;

export function exportRoutes(app: FastifyInstance, opts: ExportRouteOptions) {
  const { store, structure, background } = opts;
  const { molblocks, molblocks3d, syncMax } = opts.exports;
  const jobs = new ExportJobs({ dir: opts.exports.dir, ttlSeconds: opts.exports.ttlSeconds, background });
  // The directory is made and swept at start (expired files of an earlier run go at once).
  app.addHook('onReady', async () => {
    await jobs.start().catch((err: unknown) => app.log.warn({ err }, `exports: cannot use ${opts.exports.dir}; export jobs will fail until it can be created`));
  });
  app.addHook('onClose', async () => jobs.close());

  const baseUrl = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
  const view = (req: FastifyRequest, rec: ExportRecord) => jobView(rec, `${baseUrl(req)}/api/exports/${rec.id}/download`);

  /** The job, for its owner or an admin: 404 when unknown or expired, 403 for anyone else. */
  const owned = async (req: FastifyRequest): Promise<ExportRecord> => {
    const { id } = req.params as { id: string };
    const rec = await jobs.get(id);
    if (!rec) throw new HttpError(404, `Export ${id} not found (unknown, or expired).`);
    const user = req.catalogUser!;
    if (rec.user_id !== user.id && user.role !== 'admin') throw new HttpError(403, 'This action is unauthorized.');
    return rec;
  };

  app.post('/api/molecules/export', async (req, reply) => {
    const request = validateExportRequest(req.body);
    if (!can(req.catalogUser, 'viewAny', undefined, molecules)) throw new HttpError(403, 'This action is unauthorized.');
    // The search and the structure query are resolved here: their 422s come before any answer.
    const plan = await planExport(request, { store, structure });
    const filename = exportFilename(plan.format);
    if (request.async || plan.total > syncMax) {
      const rec = await jobs.submit({ format: plan.format, filename, total: plan.total, userId: req.catalogUser!.id }, (signal, onRows) =>
        exportText(plan, molblocks, { signal, onRows, molblocks3d }),
      );
      const statusUrl = `${baseUrl(req)}/api/exports/${rec.id}`;
      return reply.code(202).header('location', statusUrl).send({ job_id: rec.id, status: rec.status, status_url: statusUrl, total: plan.total });
    }
    return reply
      .header('content-type', MEDIA_TYPES[plan.format])
      .header('content-disposition', disposition(filename))
      .header('x-total-count', String(plan.total))
      .send(Readable.from(exportText(plan, molblocks, { molblocks3d })));
  });
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/molecules/export',
    handler: async (req, reply: FastifyReply) =>
      reply.code(405).send({ message: `The ${req.method} method is not supported for route api/molecules/export. Supported methods: POST.` }),
  });

  app.get('/api/exports/:id', async (req) => view(req, await owned(req)));

  app.get('/api/exports/:id/download', async (req, reply) => {
    const rec = await owned(req);
    if (rec.status !== 'succeeded') {
      const why = rec.status === 'failed' ? `failed: ${rec.error ?? 'unknown error'}` : `${rec.status} (${rec.rows} of ${rec.total} molecules written); poll /api/exports/${rec.id}`;
      throw new HttpError(409, `The export is not ready: ${why}.`);
    }
    return reply
      .header('content-type', MEDIA_TYPES[rec.format])
      .header('content-disposition', disposition(rec.filename))
      .header('content-length', String(rec.size))
      .send(jobs.open(rec));
  });
}
