/**
 * The MCP tools `export_molecules` and `export_status`: `POST /api/molecules/export` as a job
 * (an MCP answer cannot be a file, so the tool always asks for `async`), and
 * `GET /api/exports/{id}`, whose `download_url` (for a finished export) is fetched over HTTP with
 * the same token. Both act as the MCP connection's user (CatalogToolDeps.user).
 *
 * Export jobs keep their records and files under DATA_DIR/exports, where any api process on the
 * same DATA_DIR reads them (api/catalog/export/jobs.ts): the MCP side runs its jobs on its own
 * `ExportJobs` (McpExports) over the catalog's directory, so a job started here is polled and
 * downloaded on the REST routes too, and the REST routes' jobs are read by export_status.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { BackgroundWork, type BackgroundLog } from '../catalog/actions/background.ts';
import { can } from '../catalog/auth/policy.ts';
import { exportFilename, exportText, planExport, validateExportRequest } from '../catalog/export/export.ts';
import { FORMATS } from '../catalog/export/format.ts';
import { ExportJobs, jobView, type ExportRecord } from '../catalog/export/jobs.ts';
import type { ExportOptions } from '../catalog/export/routes.ts';
import { molecules } from '../catalog/schema/resources.ts';
import { Errors, HttpError, type CatalogUser } from '../catalog/schema/types.ts';
import type { CatalogTool, CatalogToolDeps } from './catalog-tools.ts';
import { asUser, onlyKeys } from './molecule-tools.ts';
import { READ_ONLY } from './catalog-tool.ts';

export const EXPORT_MOLECULES = 'export_molecules';
export const EXPORT_STATUS = 'export_status';

/** The export jobs the MCP tools start, on the catalog's export directory; closed with the server. */
export class McpExports {
  readonly jobs: ExportJobs;
  private readonly background: BackgroundWork;

  constructor(
    readonly options: ExportOptions,
    log: BackgroundLog,
  ) {
    this.background = new BackgroundWork(log);
    this.jobs = new ExportJobs({ dir: options.dir, ttlSeconds: options.ttlSeconds, background: this.background });
  }

  /** Resolves when every job started here has ended (tests). */
  idle(): Promise<void> {
    return this.background.idle();
  }

  /** Stops the jobs between pages (they end `failed`) and waits for them. */
  async close(): Promise<void> {
    await this.background.close();
    this.jobs.close();
  }
}

/** `GET /api/exports/{id}`'s view of a job (the same function). */
export const exportView = (rec: ExportRecord, baseUrl: string) => jobView(rec, `${baseUrl}/api/exports/${rec.id}/download`);

const available = (deps: CatalogToolDeps): McpExports => {
  if (!deps.exports) throw new HttpError(404, 'Exports are not offered by this server.');
  return deps.exports;
};
const base = (deps: CatalogToolDeps) => `${deps.context.baseUrl}${deps.context.prefix}`;

export const EXPORT_MOLECULES_TOOL: Tool = {
  name: EXPORT_MOLECULES,
  title: 'Export catalog molecules',
  // Starts a job and writes its file: not read-only, and each call starts another.
  annotations: { title: 'Export catalog molecules', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: [
    'Export the catalog molecules that match a search as a file (SMILES, SDF 2D or 3D, or CSV)',
    'Starts the export as a job, as POST /api/molecules/export with "async": true, and answers {job_id, status, status_url, total}. ' +
      'Poll it with export_status; once `succeeded` its `download_url` gives the file over HTTP (with the same bearer token). ' +
      '`search`: the search of POST /api/molecules/search without page, limit, selects or includes, e.g. ' +
      '{"filters": [{"field": "organisms.name", "value": "Artemisia annua"}], "scopes": [{"name": "active"}]}; ' +
      '`structure`: optionally a structure query ({type: exact|substructure|similarity, query, ...}) intersected with it; ' +
      '`fields`: CSV columns or SDF data items (molecule and property fields, organisms, organism_ncbi_ids, citation_dois, collections). ' +
      'Needs a reader token; the job belongs to its user.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${EXPORT_MOLECULES}Arguments`,
    properties: {
      format: { type: 'string', enum: [...FORMATS], title: 'Format', description: 'smi, sdf (2D), sdf3d, csv, or coconut_csv / coconut_csv_lite (COCONUT\'s download layouts, read back by import_catalog)' },
      search: { type: 'object', title: 'Search', description: 'filters, scopes and sorts of a molecule search' },
      structure: { type: 'object', title: 'Structure', description: 'A structure query (type, query, query_type, threshold, use_chirality)' },
      fields: { type: 'array', items: { type: 'string' }, title: 'Fields', description: 'Columns (csv) or data items (sdf)' },
    },
    required: ['format'],
    additionalProperties: false,
  },
};

export async function startExport(deps: CatalogToolDeps, user: CatalogUser, args: Record<string, unknown>) {
  const exports = available(deps);
  // An MCP answer is never a file: the export is always a job.
  if ('async' in args) {
    const e = new Errors();
    e.add('async', `The async field is prohibited: ${EXPORT_MOLECULES} always starts a job.`);
    e.throwIfAny();
  }
  const request = validateExportRequest({ ...args, async: true });
  if (!can(user, 'viewAny', undefined, molecules)) throw new HttpError(403, 'This action is unauthorized.');
  const plan = await planExport(request, { store: deps.structure.store, structure: deps.structure });
  const { molblocks, molblocks3d } = exports.options;
  const rec = await exports.jobs.submit({ format: plan.format, filename: exportFilename(plan.format), total: plan.total, userId: user.id }, (signal, onRows) =>
    exportText(plan, molblocks, { signal, onRows, molblocks3d }),
  );
  // The job outlives the call: its one progress notification says it is under way, with its size.
  deps.progress?.(0, plan.total, `export ${rec.id} ${rec.status}: poll it with ${EXPORT_STATUS}`);
  return { job_id: rec.id, status: rec.status, status_url: `${base(deps)}/api/exports/${rec.id}`, total: plan.total };
}

export const exportMoleculesTool: CatalogTool = {
  tool: EXPORT_MOLECULES_TOOL,
  call: (deps, args) => asUser(EXPORT_MOLECULES, deps, (user) => startExport(deps, user, args ?? {})),
};

export const EXPORT_STATUS_TOOL: Tool = {
  name: EXPORT_STATUS,
  title: 'Status of a molecule export',
  annotations: { title: 'Status of a molecule export', ...READ_ONLY },
  description: [
    'The status of a molecule export started with export_molecules (or POST /api/molecules/export)',
    'As GET /api/exports/{id}: status (queued, running, succeeded, failed), progress {rows, total}, times, and when it succeeded its size and ' +
      '`download_url` (GET it over HTTP with the same bearer token; it expires after the server\'s JOB_RESULT_TTL). ' +
      'Only the user who started the export (or an admin) sees it.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${EXPORT_STATUS}Arguments`,
    properties: { job_id: { type: 'string', title: 'Job Id', description: 'The job_id export_molecules answered' } },
    required: ['job_id'],
    additionalProperties: false,
  },
};

export async function exportStatus(deps: CatalogToolDeps, user: CatalogUser, args: Record<string, unknown>) {
  const exports = available(deps);
  const e = new Errors();
  onlyKeys(args, ['job_id'], e);
  if (typeof args.job_id !== 'string' || !args.job_id) e.add('job_id', args.job_id === undefined ? 'The job id field is required.' : 'The job id field must be a string.');
  e.throwIfAny();
  const id = args.job_id as string;
  const rec = await exports.jobs.get(id);
  if (!rec) throw new HttpError(404, `Export ${id} not found (unknown, or expired).`);
  if (rec.user_id !== user.id && user.role !== 'admin') throw new HttpError(403, 'This action is unauthorized.');
  return exportView(rec, base(deps));
}

export const exportStatusTool: CatalogTool = {
  tool: EXPORT_STATUS_TOOL,
  call: (deps, args) => asUser(EXPORT_STATUS, deps, (user) => exportStatus(deps, user, args ?? {})),
};
