/**
 * The OpenAPI 3.1 document, derived from the operation registry (one operation per tool, the tool
 * name as operationId) and from the catalog resource table. Served at /openapi.json and by
 * Swagger UI at /docs.
 */
import { z } from 'zod';
import { OPERATIONS } from '../shared/ops/index.ts';
import { mediaTypesOf, type OpDef } from '../shared/ops/types.ts';
import { RESOURCES, ROUTED } from './catalog/schema/resources.ts';

/**
 * JSON Schema of an operation's arguments as a client sends them, with each argument's default
 * (zod drops defaults of preprocessed values, so they are read back by parsing `undefined`).
 */
export function argsJsonSchema(op: OpDef): { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] } {
  const schema = z.toJSONSchema(op.args, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const field = op.args.shape[key] as z.ZodType;
    const dflt = field.safeParse(undefined);
    properties[key] = { title: key, ...prop, ...(dflt.success && dflt.data !== undefined ? { default: dflt.data } : {}) };
  }
  return { type: 'object', properties, required: schema.required ?? [] };
}

const MEDIA_EXAMPLE: Record<string, Record<string, unknown>> = {
  'application/json': { schema: {} },
  'text/plain': { schema: { type: 'string' } },
  'image/svg+xml': { schema: { type: 'string' } },
  'text/html': { schema: { type: 'string' } },
  'image/png': { schema: { type: 'string', format: 'binary' } },
};

const errorResponses = {
  '422': { description: 'Invalid structure or parameters: `{"detail": ...}`' },
  '504': { description: 'The job did not finish in time; the detail names its id' },
};

function chemOperation(op: OpDef) {
  const args = argsJsonSchema(op);
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const inBody = new Set<string>();
  let requestBody: Record<string, unknown> | undefined;
  if (op.body?.kind === 'text') {
    inBody.add(op.body.field);
    requestBody = {
      required: true,
      content: {
        'text/plain': { schema: { type: 'string' } },
        'application/json': { schema: { type: 'object', properties: { [op.body.field]: args.properties[op.body.field] } } },
      },
    };
  } else if (op.body?.kind === 'multipart') {
    const { field, into, filenameInto } = op.body;
    inBody.add(into);
    if (filenameInto) inBody.add(filenameInto);
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { [field]: { type: 'string', format: 'binary' } }, required: [field] },
        },
        'application/json': { schema: { type: 'object', properties: Object.fromEntries([...inBody].map((k) => [k, args.properties[k]])) } },
      },
    };
  }
  const parameters = Object.entries(args.properties)
    .filter(([k]) => !inBody.has(k))
    .map(([name, schema]) => ({
      name,
      in: pathParams.includes(name) ? 'path' : 'query',
      required: pathParams.includes(name) || args.required.includes(name),
      description: schema.description,
      schema,
      ...(op.examples?.[0]?.query[name] !== undefined ? { example: op.examples[0].query[name] } : {}),
    }));
  parameters.push({
    name: 'async',
    in: 'query',
    required: false,
    description: 'Answer 202 with a job id at once instead of waiting for the result',
    schema: { type: 'boolean', default: false } as never,
  });
  const media = mediaTypesOf(op);
  const ok = {
    description: op.outputBy
      ? `Successful response: ${media.map((m) => (m === op.output ? `${m} (default)` : `${m} when \`${op.outputBy!.arg}=${Object.keys(op.outputBy!.media).filter((k) => op.outputBy!.media[k] === m).join('|')}\``)).join(', ')}`
      : 'Successful response',
    content: Object.fromEntries(media.map((m) => [m, MEDIA_EXAMPLE[m]])),
  };
  return {
    operationId: op.name,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description ?? ''}${op.mode === 'long' ? '\n\nLong operation: answers 202 `{job_id, status, status_url}`; poll the status URL.' : ''}`.trim(),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: { [String(op.successStatus ?? (op.mode === 'long' ? 202 : 200))]: ok, ...errorResponses },
  };
}

function catalogPaths() {
  const paths: Record<string, Record<string, unknown>> = {};
  const security = [{ bearer: [] }];
  for (const name of ROUTED) {
    const tags = [`catalog: ${name}`];
    const json = (description: string) => ({ required: true, description, content: { 'application/json': { schema: { type: 'object' } } } });
    paths[`/api/${name}`] = {
      get: { operationId: `catalog_${name}_detail`, tags, security, summary: `Describe ${name}: fields, relations, scopes, actions, rules`, responses: { '200': { description: 'Detail' } } },
      delete: { operationId: `catalog_${name}_delete`, tags, security, summary: `Delete ${name} by id (admin)`, requestBody: json('`{"resources": [ids]}`'), responses: { '200': { description: 'The deleted records' } } },
    };
    paths[`/api/${name}/search`] = {
      post: { operationId: `catalog_${name}_search`, tags, security, summary: `Search ${name}`, requestBody: json('`{"search": {scopes, filters, sorts, selects, includes, aggregates, gates, page, limit}}`'), responses: { '200': { description: 'Paginated records' } } },
    };
    paths[`/api/${name}/mutate`] = {
      post: { operationId: `catalog_${name}_mutate`, tags, security, summary: `Create or update ${name} (${name === 'users' ? 'admin' : 'curator'})`, requestBody: json('`{"mutate": [{operation, key?, attributes, relations}]}`'), responses: { '200': { description: '`{created, updated}`' } } },
    };
    if (RESOURCES[name].actions.length) {
      paths[`/api/${name}/actions/{action}`] = {
        post: {
          operationId: `catalog_${name}_action`,
          tags,
          security,
          summary: `Run an action on ${name}: ${RESOURCES[name].actions.map((a) => a.uriKey).join(', ')}`,
          parameters: [{ name: 'action', in: 'path', required: true, schema: { type: 'string', enum: RESOURCES[name].actions.map((a) => a.uriKey) } }],
          requestBody: json('`{"search": {...}, "fields": [...]}`'),
          responses: { '200': { description: '`{"data": {"impacted": n}}`' } },
        },
      };
    }
  }
  // Exports (docs/catalog.md#exports).
  const exportTags = ['catalog: molecules'];
  const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];
  paths['/api/molecules/export'] = {
    post: {
      operationId: 'catalog_molecules_export',
      tags: exportTags,
      security,
      summary: 'Export every molecule matching a search (and a structure query) as SMILES, SDF or CSV',
      requestBody: { required: true, description: '`{"search": {filters, scopes, sorts}, "structure": {type, query, query_type, threshold, use_chirality}, "format": "smi"|"sdf"|"csv", "fields": [...], "async": false}`', content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': { description: 'The export, streamed', content: { 'text/plain': {}, 'chemical/x-mdl-sdfile': {}, 'text/csv': {} } },
        '202': { description: 'More than EXPORT_SYNC_MAX molecules, or `async`: `{job_id, status, status_url, total}`' },
        '422': { description: 'Invalid request (unknown format, fields or keys; unreadable structure query)' },
      },
    },
  };
  paths['/api/exports/{id}'] = {
    get: { operationId: 'catalog_export_status', tags: exportTags, security, summary: 'Status and progress of an export job (its owner or an admin)', parameters: idParam, responses: { '200': { description: '`{id, status, format, filename, progress: {rows, total}, created_at, started_at?, finished_at?, expires_at?, size?, error?, download_url?}`' }, '403': { description: "Another user's export" }, '404': { description: 'Unknown or expired export' } } },
  };
  paths['/api/exports/{id}/download'] = {
    get: { operationId: 'catalog_export_download', tags: exportTags, security, summary: 'The file of a finished export job (its owner or an admin)', parameters: idParam, responses: { '200': { description: 'The export file' }, '409': { description: 'Not finished, or failed' }, '403': { description: "Another user's export" }, '404': { description: 'Unknown or expired export' } } },
  };
  // Imports (docs/catalog.md#imports), admins only.
  const importTags = ['catalog: imports'];
  const importView = '`{id, status: queued|running|succeeded|failed|cancelled, filename, source, size, molecule_status, progress: {rows, bytes, total_bytes, fraction, rows_per_s, eta_s}, runs, created_at, started_at?, finished_at?, summary: {rows, created, updated, rejected: [{row, reason}], rejected_count, warnings, warnings_count}, error?, status_url}`';
  const notAdmin = { '401': { description: 'No token' }, '403': { description: 'Not an admin' } };
  paths['/api/imports'] = {
    post: {
      operationId: 'catalog_import',
      tags: importTags,
      security,
      summary: 'Import a TSV, CSV or SDF file (optionally .gz) into the catalog as a job',
      requestBody: {
        required: true,
        description: 'An upload (multipart field `file`, optional field `status`), or `{"path": "<file under IMPORT_DIR>", "status": "DRAFT"|"INREVIEW"|"APPROVED"}`',
        content: {
          'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, status: { type: 'string', enum: ['DRAFT', 'INREVIEW', 'APPROVED'] } }, required: ['file'] } },
          'application/json': { schema: { type: 'object', properties: { path: { type: 'string' }, status: { type: 'string', enum: ['DRAFT', 'INREVIEW', 'APPROVED'] } }, required: ['path'], additionalProperties: false } },
        },
      },
      responses: {
        '202': { description: `The job, started: ${importView}; \`Location\` is its status URL` },
        ...notAdmin,
        '403': { description: 'Not an admin, a path outside IMPORT_DIR, or imports by path off (IMPORT_DIR unset)' },
        '404': { description: 'No such file under IMPORT_DIR' },
        '409': { description: 'The same file (bytes, or path, size and time) is being imported: the answer names that job' },
        '413': { description: 'An upload over IMPORT_UPLOAD_LIMIT' },
        '422': { description: 'A file type no reader takes, an empty upload, unknown fields or status' },
      },
    },
    get: { operationId: 'catalog_imports', tags: importTags, security, summary: 'Every import job, newest first', responses: { '200': { description: `\`{"data": [...]}\`, each ${importView}` }, ...notAdmin } },
  };
  paths['/api/imports/{id}'] = {
    get: { operationId: 'catalog_import_status', tags: importTags, security, summary: 'Status, progress and summary of an import job', parameters: idParam, responses: { '200': { description: importView }, ...notAdmin, '404': { description: 'Unknown import' } } },
    delete: { operationId: 'catalog_import_cancel', tags: importTags, security, summary: 'Cancel an import between rows (what it wrote stays)', parameters: idParam, responses: { '200': { description: `The job after it stopped: ${importView}` }, ...notAdmin, '404': { description: 'Unknown import' }, '409': { description: 'The import has ended' } } },
  };
  return paths;
}

export function buildOpenApi(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = chemOperation(op);
  }
  paths['/jobs/{id}'] = {
    get: { operationId: 'get_job', tags: ['jobs'], summary: 'Status and result of a job', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: '`{id, op, status, progress, result?, error?, created_at, started_at?, finished_at?}`' }, '404': { description: 'Unknown or expired job' } } },
    delete: { operationId: 'cancel_job', tags: ['jobs'], summary: 'Cancel a queued or running job', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'The job record after cancellation' }, '404': { description: 'Unknown or expired job' } } },
  };
  Object.assign(paths, catalogPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'natprod',
      version,
      description:
        'Natural-product catalog (COCONUT-style REST API under /api, bearer tokens) and chemistry service. Every chemistry ' +
        'operation is also served under /latest and /v1, and is an MCP tool of the same name at /mcp.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Sanctum-style token `<id>|<secret>` (npm run token)' } } },
    paths,
  };
}
