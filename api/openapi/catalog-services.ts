/**
 * The catalog's routes besides the Lomkit resources in the OpenAPI document: COCONUT's search
 * (`POST /api/search`), accounts (login, register, logout), exports, look-ups, imports and dumps.
 * Request fields come from the constants their readers check (COCONUT's search: api/catalog/search/request.ts).
 */
import { RESOURCES } from '../catalog/schema/resources.ts';
import { COCONUT_TYPES, EXTRA_TYPES, LIMIT_DEFAULT, LIMIT_MAX, MASS_KEYS, QUERY_MAX } from '../catalog/search/index.ts';
import { REGISTER_RULES } from '../catalog/auth/register.ts';
import { FORMATS } from '../catalog/export/format.ts';
import { catalogErrors, json, nullable, obj, ref, recordName, type Schema } from './components.ts';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const security = [{ bearer: [] }];
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

/** What a dump holds: the CSV and SDF files, gzip copies, and the manifest. */
const DUMP_MEDIA = Object.fromEntries(
  ['text/csv', 'chemical/x-mdl-sdfile', 'application/gzip', 'application/json'].map((m) => [m, { schema: m === 'application/json' ? { type: 'object' } : { type: 'string', format: 'binary' } }]),
);

/** Laravel's paginator, as COCONUT's search and natprod's structure search answer it. */
const laravelPage = (item: Schema, extra: Record<string, Schema> = {}): Schema =>
  obj(
    {
      current_page: int,
      data: { type: 'array', items: item },
      first_page_url: str,
      from: nullable('integer'),
      last_page: nullable('integer'),
      last_page_url: nullable('string'),
      links: { type: 'array', items: { type: 'object' } },
      next_page_url: nullable('string'),
      path: str,
      per_page: int,
      prev_page_url: nullable('string'),
      to: nullable('integer'),
      total: nullable('integer'),
      ...extra,
    },
    ['current_page', 'data', 'per_page', 'total'],
    true,
  );

const SEARCH_BODY: Schema = obj(
  {
    query: { type: 'string', maxLength: QUERY_MAX, description: `The query (a structure up to 20,000 characters); its type is detected when \`type\` is absent` },
    type: { enum: [...COCONUT_TYPES, ...EXTRA_TYPES] },
    tagType: { type: 'string', description: 'Type `tags`: `dataSource`, `organisms`, `citations`' },
    limit: { type: ['integer', 'string'], minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
    page: { type: ['integer', 'string'], minimum: 1, default: 1 },
    offset: { type: ['integer', 'string'], minimum: 0, maximum: 100 },
    sort: { enum: ['recent', 'relevance', null] },
    status: { enum: ['all', 'approved', 'revoked', null] },
    query_type: { enum: ['smiles', 'smarts'] },
    use_chirality: { type: 'boolean' },
    threshold: { type: 'number', minimum: 0, maximum: 1 },
    count: { type: 'boolean', description: "natprod's structure search (types exact, substructure, similarity): ask for the total or not" },
    ...Object.fromEntries(MASS_KEYS.map((k) => [k, { description: 'Type `mass` (MS dereplication): see docs/catalog.md' }])),
  },
  [],
);

export function catalogServicePaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  const molecule = ref(recordName(RESOURCES.molecules));
  paths['/api/search'] = {
    post: {
      operationId: 'catalog_search',
      security: [],
      tags: ['catalog: search'],
      summary: "COCONUT's search: text, identifiers, structures, tags, filters, MS dereplication (no token needed)",
      requestBody: { required: true, content: { 'application/json': { schema: SEARCH_BODY } } },
      responses: {
        '200': json(
          {
            anyOf: [
              obj({ data: laravelPage({ type: 'object' }) }, ['data'], true),
              laravelPage(molecule, { has_more: { type: 'boolean' }, meta: { type: 'object' } }),
              obj({ data: { type: 'array', items: obj({ mz: { type: 'number' }, total: int, hits: { type: 'array', items: { type: 'object' } } }, ['mz', 'total', 'hits'], true) } }, ['data'], true),
            ],
          },
          "COCONUT's form: `{data: <paginator>}`; natprod's structure form (with `count`): the paginator itself, with `has_more`; type `mass`: `{data: [{mz, total, hits}]}`, one entry per m/z",
        ),
        ...catalogErrors(400, 413, 415, 422, 429, 503, 504),
      },
    },
  };
  paths['/api/auth/login'] = {
    post: {
      operationId: 'catalog_login',
      security: [],
      tags: ['catalog: accounts'],
      summary: 'Exchange e-mail and password for a bearer token',
      requestBody: { required: true, content: { 'application/json': { schema: obj({ email: str, password: str }) } } },
      responses: { '200': json(obj({ access_token: str, token_type: { const: 'Bearer' } }), 'The token'), ...catalogErrors(400, 401, 413, 415, 422, 429) },
    },
  };
  paths['/api/auth/register'] = {
    post: {
      operationId: 'catalog_register',
      security: [],
      tags: ['catalog: accounts'],
      summary: 'Create a reader account (when REGISTRATION is on) and get a token',
      requestBody: { required: true, content: { 'application/json': { schema: obj(Object.fromEntries(REGISTER_RULES.map((r) => [r.field, { type: 'string', maxLength: r.max, minLength: r.min, ...(r.email ? { format: 'email' } : {}) }])), REGISTER_RULES.filter((r) => r.required).map((r) => r.field)) } } },
      responses: { '201': json(obj({ success: { type: 'boolean' }, message: str, token: str, access_token: str, token_type: { const: 'Bearer' } }), 'The new account\'s token'), ...catalogErrors(400, 403, 413, 415, 422, 429) },
    },
  };
  paths['/api/auth/logout'] = {
    get: { operationId: 'catalog_logout', tags: ['catalog: accounts'], security, summary: 'Revoke the token used', responses: { '200': json(obj({ logout: { const: 'Successful' } }), 'Revoked'), ...catalogErrors(401, 429) } },
  };
  // Exports (docs/catalog.md#exports).
  const exportTags = ['catalog: molecules'];
  const submitted = (description: string) => json(obj({ job_id: str, status: str, status_url: str, total: int }, ['job_id', 'status', 'status_url'], true), description);
  const exportJob = obj({ id: str, status: { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }, format: str, filename: str, progress: { type: 'object' }, created_at: str, download_url: str }, ['id', 'status'], true);
  paths['/api/molecules/export'] = {
    post: {
      operationId: 'catalog_molecules_export',
      tags: exportTags,
      security,
      summary: 'Export every molecule matching a search (and a structure query) as SMILES, SDF, CSV or COCONUT\'s CSV layouts',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: obj(
              {
                search: { type: 'object', description: 'A Lomkit search of molecules: filters, scopes, sorts' },
                structure: obj({ type: { enum: ['substructure', 'exact', 'similarity'] }, query: str, query_type: { enum: ['smiles', 'smarts'] }, threshold: { type: 'number' }, use_chirality: { type: 'boolean' } }, ['type', 'query']),
                format: { enum: [...FORMATS], description: 'smi, sdf (2D), sdf3d (3D), csv (natprod\'s columns, `fields`), coconut_csv or coconut_csv_lite (COCONUT\'s download layouts, read back by the COCONUT importer)' },
                fields: { type: 'array', items: str },
                async: { type: 'boolean' },
              },
              [],
            ),
          },
        },
      },
      responses: {
        '200': { description: 'The export, streamed', content: { 'text/plain': { schema: str }, 'chemical/x-mdl-sdfile': { schema: str }, 'text/csv': { schema: str } } },
        '202': submitted('More than EXPORT_SYNC_MAX molecules, or `async`: the job'),
        ...catalogErrors(400, 401, 403, 413, 415, 422, 429, 503, 504),
      },
    },
  };
  paths['/api/exports/{id}'] = {
    get: { operationId: 'catalog_export_status', tags: exportTags, security, summary: 'Status and progress of an export job (its owner or an admin)', parameters: idParam, responses: { '200': json(exportJob, 'The job'), ...catalogErrors(401, 403, 404, 429) } },
  };
  paths['/api/exports/{id}/download'] = {
    get: {
      operationId: 'catalog_export_download',
      tags: exportTags,
      security,
      summary: 'The file of a finished export job (its owner or an admin)',
      parameters: idParam,
      responses: { '200': { description: 'The export file', content: { 'text/plain': { schema: str }, 'chemical/x-mdl-sdfile': { schema: str }, 'text/csv': { schema: str } } }, ...catalogErrors(401, 403, 404, 409, 429) },
    },
  };
  // Imports (docs/catalog.md#imports), admins only.
  const importTags = ['catalog: imports'];
  const importJob = obj(
    {
      id: str,
      status: { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
      filename: str,
      source: str,
      size: int,
      molecule_status: str,
      revoke_absent: { type: 'boolean', description: 'The file is a whole COCONUT release: COCONUT molecules it leaves out are revoked' },
      progress: { type: 'object', description: '`{rows, bytes, total_bytes, fraction, rows_per_s, eta_s}`' },
      runs: int,
      created_at: str,
      summary: { type: 'object', description: '`{rows, created, updated, rejected: [{row, reason}], rejected_count, warnings, warnings_count}`, `revoked` (molecules revoked) with `revoke_absent`, and `carried`, `sampled` (rows loaded with the derivation the file carries, and of those the ones derived again to check it) for natprod\'s full dump' },
      status_url: str,
    },
    ['id', 'status'],
    true,
  );
  const MOLECULE_STATUS = { type: 'string', enum: ['DRAFT', 'INREVIEW', 'APPROVED'] };
  paths['/api/imports'] = {
    post: {
      operationId: 'catalog_import',
      tags: importTags,
      security,
      summary: 'Import a TSV, CSV or SDF file (optionally .gz, or zipped as COCONUT\'s downloads) into the catalog as a job (admin)',
      requestBody: {
        required: true,
        description: 'An upload (multipart field `file`, optional field `status`), or a file under IMPORT_DIR',
        content: {
          'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, status: MOLECULE_STATUS, revoke_absent: { type: 'string', enum: ['true', 'false'] } }, required: ['file'] } },
          'application/json': { schema: obj({ path: str, status: MOLECULE_STATUS, revoke_absent: { type: 'boolean' } }, ['path']) },
        },
      },
      responses: {
        '202': json(importJob, 'The job, started; `Location` is its status URL'),
        ...catalogErrors(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
      },
    },
    get: { operationId: 'catalog_imports', tags: importTags, security, summary: 'Every import job, newest first (admin)', responses: { '200': json(obj({ data: { type: 'array', items: importJob } }), 'The jobs'), ...catalogErrors(401, 403, 429) } },
  };
  paths['/api/imports/{id}'] = {
    get: { operationId: 'catalog_import_status', tags: importTags, security, summary: 'Status, progress and summary of an import job (admin)', parameters: idParam, responses: { '200': json(importJob, 'The job'), ...catalogErrors(401, 403, 404, 429) } },
    delete: { operationId: 'catalog_import_cancel', tags: importTags, security, summary: 'Cancel an import between rows (what it wrote stays)', parameters: idParam, responses: { '200': json(importJob, 'The job after it stopped'), ...catalogErrors(401, 403, 404, 409, 429) } },
  };
  // Look-ups (docs/catalog.md#look-ups).
  paths['/api/molecules/lookup'] = {
    post: {
      operationId: 'catalog_molecules_lookup',
      tags: exportTags,
      security,
      summary: 'Look up a list of names, identifiers, InChIKeys or SMILES (JSON, text or an uploaded file): a CSV of matches',
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: obj({ queries: { type: 'array', items: str }, fields: { type: 'array', items: str }, async: { type: 'boolean' } }, ['queries'], true) },
          'text/plain': { schema: str },
          'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
        },
      },
      responses: {
        '200': { description: 'The matches, streamed', content: { 'text/csv': { schema: str } } },
        '202': json(obj({ job_id: str, status: str, status_url: str, total: int }), 'A long list, or `async`: the job'),
        ...catalogErrors(400, 401, 403, 413, 415, 422, 429),
      },
    },
  };
  paths['/api/lookups/{id}'] = {
    get: { operationId: 'catalog_lookup_status', tags: exportTags, security, summary: 'Status and progress of a look-up job', parameters: idParam, responses: { '200': json(obj({ id: str, status: str }, ['id', 'status'], true), 'The job'), ...catalogErrors(401, 403, 404, 429) } },
  };
  paths['/api/lookups/{id}/download'] = {
    get: { operationId: 'catalog_lookup_download', tags: exportTags, security, summary: 'The CSV of a finished look-up job', parameters: idParam, responses: { '200': { description: 'The CSV', content: { 'text/csv': { schema: str } } }, ...catalogErrors(401, 403, 404, 409, 429) } },
  };
  // Dumps (docs/catalog.md#dumps): listed and downloaded without a token, made by admins.
  const dumpTags = ['catalog: dumps'];
  const manifest = obj({ date: str, created_at: str, finished_at: str, software: { type: 'object' }, molecules: int, files: { type: 'array', items: obj({ name: str, url: str }, ['name', 'url'], true) }, manifest_url: str }, ['date', 'files', 'manifest_url'], true);
  paths['/api/dumps'] = {
    get: { operationId: 'catalog_dumps', security: [], tags: dumpTags, summary: 'Every dump, newest first, with its files, sizes and SHA-256', responses: { '200': json(obj({ data: { type: 'array', items: manifest } }), 'The dumps'), ...catalogErrors(429) } },
    post: {
      operationId: 'catalog_dump_start',
      tags: dumpTags,
      security,
      summary: 'Write a dump of the whole catalog as a job (admin)',
      requestBody: { required: false, content: { 'application/json': { schema: obj({ sdf3d: { type: 'boolean' }, force: { type: 'boolean' } }, []) } } },
      responses: { '202': json(obj({ job_id: str, status: str, status_url: str, date: str, sdf3d: { type: 'boolean' } }), 'The job, started'), ...catalogErrors(400, 401, 403, 409, 413, 415, 422, 429, 503) },
    },
  };
  paths['/api/dumps/jobs/{id}'] = {
    get: { operationId: 'catalog_dump_status', tags: dumpTags, security, summary: 'Status of a dump job (admin)', parameters: idParam, responses: { '200': json(obj({ id: str, status: str, manifest_url: str }, ['id', 'status'], true), 'The job; `manifest_url` once finished'), ...catalogErrors(401, 403, 404, 429) } },
  };
  paths['/api/dumps/{date}/{file}'] = {
    get: {
      operationId: 'catalog_dump_file',
      security: [],
      tags: dumpTags,
      summary: 'A file of a dump (byte ranges accepted)',
      parameters: [
        { name: 'date', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
        { name: 'file', in: 'path', required: true, schema: str },
        { name: 'Range', in: 'header', required: false, schema: str },
      ],
      responses: {
        '200': { description: 'The file (its media type is in the manifest)', content: DUMP_MEDIA },
        '206': { description: 'The range asked for', content: DUMP_MEDIA },
        ...catalogErrors(400, 404, 416, 429),
      },
    },
  };
  return paths;
}
