/**
 * The MCP tools `import_molecules` and `import_status`: `POST /api/imports` and
 * `GET /api/imports/{id}` on the same import jobs (api/catalog/import/jobs.ts), for admins. An
 * assistant names a file under the server's IMPORT_DIR (`path`), or sends a small file inline
 * (`content` as text, or `content_base64` for gzip), with its `filename` saying the format; the
 * import runs as a job whose progress and summary import_status reads, as any api's REST route does.
 */
import { Readable } from 'node:stream';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { importView, type ImportJobs } from '../catalog/import/jobs.ts';
import { moleculeStatus } from '../catalog/import/routes.ts';
import { Errors, HttpError, type CatalogUser } from '../catalog/schema/types.ts';
import type { CatalogTool, CatalogToolDeps } from './catalog-tools.ts';
import { READ_ONLY } from './catalog-tool.ts';
import { asUser, onlyKeys } from './molecule-tools.ts';

export const IMPORT_MOLECULES = 'import_molecules';
export const IMPORT_STATUS = 'import_status';

const available = (deps: CatalogToolDeps): ImportJobs => {
  if (!deps.imports) throw new HttpError(404, 'Imports are not offered by this server.');
  return deps.imports;
};
const statusUrl = (deps: CatalogToolDeps, id: string) => `${deps.context.baseUrl}${deps.context.prefix}/api/imports/${id}`;
const admin = (user: CatalogUser) => {
  if (user.role !== 'admin') throw new HttpError(403, 'This action is unauthorized.');
};

export const IMPORT_MOLECULES_TOOL: Tool = {
  name: IMPORT_MOLECULES,
  title: 'Import molecules into the catalog',
  // Destructive: it updates molecules in place (a newer release's fields replace the stored ones), and
  // with revoke_absent it revokes the COCONUT molecules a release leaves out.
  annotations: { title: 'Import molecules into the catalog', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  description: [
    'Import a TSV, CSV or SDF file (optionally gzip-compressed or zipped, as COCONUT\'s downloads) into the catalog, as POST /api/imports',
    'Starts the import as a job and answers its record: {id, status, progress, summary, status_url}. Poll it with import_status. ' +
      'Give `path`, a file under the server\'s IMPORT_DIR, or the file itself: `content` (its text) or `content_base64` (its bytes, for .gz), ' +
      'with `filename`, whose extension says the format (.tsv, .csv, .sdf, each optionally .gz). Structures are derived on the chemistry threads; ' +
      'molecules are matched by InChIKey, so importing a file again updates what it wrote. Rows that cannot be read are reported with their number ' +
      'and reason in the summary. `status`: DRAFT, INREVIEW or APPROVED (default) for the molecules it creates. COCONUT\'s files keep their identifiers; ' +
      '`revoke_absent`: the file is a whole COCONUT release, so the COCONUT molecules it leaves out are revoked. Needs an admin token.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${IMPORT_MOLECULES}Arguments`,
    properties: {
      path: { type: 'string', title: 'Path', description: 'A file under IMPORT_DIR (relative to it, or absolute)' },
      content: { type: 'string', title: 'Content', description: 'The file as text' },
      content_base64: { type: 'string', title: 'Content Base64', description: 'The file\'s bytes, base64-encoded' },
      filename: { type: 'string', title: 'Filename', description: 'Name of the inline file, e.g. compounds.tsv or set.sdf.gz' },
      status: { type: 'string', enum: ['DRAFT', 'INREVIEW', 'APPROVED'], title: 'Status', description: 'Status of the molecules it creates' },
      revoke_absent: { type: 'boolean', title: 'Revoke Absent', description: 'The file is a whole COCONUT release: revoke the COCONUT molecules it leaves out' },
    },
    additionalProperties: false,
  },
};

export async function startImport(deps: CatalogToolDeps, user: CatalogUser, args: Record<string, unknown>) {
  const jobs = available(deps);
  const e = new Errors();
  onlyKeys(args, ['path', 'content', 'content_base64', 'filename', 'status', 'revoke_absent'], e);
  const status = moleculeStatus(args.status, e);
  if (args.revoke_absent !== undefined && typeof args.revoke_absent !== 'boolean') e.add('revoke_absent', 'The revoke_absent field must be true or false.');
  const revokeAbsent = args.revoke_absent === true;
  const given = ['path', 'content', 'content_base64'].filter((k) => args[k] !== undefined);
  if (given.length !== 1) e.add(given[0] ?? 'path', 'Give exactly one of path, content and content_base64.');
  for (const k of given) if (typeof args[k] !== 'string' || !args[k]) e.add(k, `The ${k} field must be a non-empty string.`);
  if (given.length === 1 && given[0] !== 'path' && (typeof args.filename !== 'string' || !args.filename)) e.add('filename', 'The filename field is required with inline content: its extension says the format.');
  if (args.content_base64 !== undefined && typeof args.content_base64 === 'string' && !/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(args.content_base64)) e.add('content_base64', 'The content_base64 field must be base64.');
  e.throwIfAny();
  admin(user);
  let rec;
  if (typeof args.path === 'string') rec = await jobs.submitPath(await jobs.serverFile(args.path), { moleculeStatus: status, userId: user.id, revokeAbsent });
  else {
    const bytes = typeof args.content === 'string' ? Buffer.from(args.content, 'utf8') : Buffer.from(args.content_base64 as string, 'base64');
    const upload = await jobs.upload(Readable.from([bytes]), args.filename as string);
    rec = await jobs.submitUpload(upload, { moleculeStatus: status, userId: user.id, revokeAbsent });
  }
  deps.progress?.(0, rec.size, `import ${rec.id} ${rec.status}: poll it with ${IMPORT_STATUS}`);
  return importView(rec, statusUrl(deps, rec.id));
}

export const importMoleculesTool: CatalogTool = {
  tool: IMPORT_MOLECULES_TOOL,
  call: (deps, args) => asUser(IMPORT_MOLECULES, deps, (user) => startImport(deps, user, args ?? {})),
};

export const IMPORT_STATUS_TOOL: Tool = {
  name: IMPORT_STATUS,
  title: 'Status of a catalog import',
  annotations: { title: 'Status of a catalog import', ...READ_ONLY },
  description: [
    'The status of a catalog import started with import_molecules (or POST /api/imports, or the command line)',
    'As GET /api/imports/{id}: status (queued, running, succeeded, failed, cancelled), progress {rows, bytes, total_bytes, fraction, rows_per_s, eta_s}, ' +
      'and the summary: rows, molecules, organisms, citations, collections and links created and updated, and the rejected rows with their number and reason. ' +
      'Needs an admin token.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${IMPORT_STATUS}Arguments`,
    properties: { id: { type: 'string', title: 'Id', description: 'The id import_molecules answered' } },
    required: ['id'],
    additionalProperties: false,
  },
};

export async function importStatus(deps: CatalogToolDeps, user: CatalogUser, args: Record<string, unknown>) {
  const jobs = available(deps);
  const e = new Errors();
  onlyKeys(args, ['id'], e);
  if (typeof args.id !== 'string' || !args.id) e.add('id', args.id === undefined ? 'The id field is required.' : 'The id field must be a string.');
  e.throwIfAny();
  admin(user);
  const rec = await jobs.get(args.id as string);
  if (!rec) throw new HttpError(404, `Import ${String(args.id)} not found.`);
  return importView(rec, statusUrl(deps, rec.id));
}

export const importStatusTool: CatalogTool = {
  tool: IMPORT_STATUS_TOOL,
  call: (deps, args) => asUser(IMPORT_STATUS, deps, (user) => importStatus(deps, user, args ?? {})),
};
