/**
 * The OpenAPI document's shared parts: the error bodies of both families (FastAPI's `{detail}`
 * for the chemistry service, Laravel's `{message, errors}` under /api), job records, the catalog
 * resources' records (typed from their field declarations, api/catalog/schema/) and the error
 * answers each kind of route can give.
 */
import { RESOURCES, ROUTED } from '../catalog/schema/resources.ts';
import { STATUSES, type FieldType, type ResourceDef } from '../catalog/schema/define.ts';
import { ROLES } from '../catalog/schema/types.ts';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Schema, description: string) => ({ description, content: { 'application/json': { schema } } });
export const nullable = (type: string): Schema => ({ type: [type, 'null'] });
export const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties), extra = false): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: extra,
});
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

const FIELD: Record<FieldType, Schema> = {
  string: nullable('string'),
  int: nullable('integer'),
  number: nullable('number'),
  decimal: nullable('number'),
  bool: nullable('boolean'),
  status: { enum: [...STATUSES, null] },
  role: { enum: [...ROLES, null] },
  'string[]': { type: ['array', 'null'], items: str },
  'int[]': { type: ['array', 'null'], items: int },
  json: { type: ['object', 'null'] },
};

/** Component names: `Molecule`, `MoleculePage` (Lomkit's class name less `Resource`). */
export const recordName = (r: ResourceDef) => r.schema.className.replace(/Resource$/, '');
export const pageName = (r: ResourceDef) => `${recordName(r)}Page`;

/**
 * A record as the Lomkit operations answer it: any of its exposed fields (a search's `selects`
 * choose which; `id` always), its included relations (a list of records, or one or null), and the
 * aggregates a search asks for (`<relation>_count`, ...: any further key).
 */
function recordSchema(r: ResourceDef): Schema {
  const props: Record<string, Schema> = Object.fromEntries(Object.entries(r.fields).map(([f, t]) => [f, FIELD[t]]));
  props.id = r.collection ? int : FIELD[r.fields.id ?? 'int'];
  for (const rel of r.relations) {
    const target = ref(recordName(RESOURCES[rel.target]));
    props[rel.name] = rel.kind === 'HasOne' ? { oneOf: [target, { type: 'null' }] } : { type: 'array', items: target };
  }
  return { type: 'object', description: `A ${r.name} record (${r.schema.doc})`, properties: props, additionalProperties: true };
}

/** Lomkit's paginated search answer. */
const page = (item: Schema): Schema =>
  obj(
    {
      current_page: int,
      data: { type: 'array', items: item },
      from: nullable('integer'),
      last_page: int,
      per_page: int,
      to: nullable('integer'),
      total: int,
      meta: { description: 'Lomkit\'s meta (an empty list here)' },
    },
    ['current_page', 'data', 'from', 'last_page', 'per_page', 'to', 'total'],
  );

export function componentSchemas(): Record<string, Schema> {
  const out: Record<string, Schema> = {
    Detail: { ...obj({ detail: { description: 'What went wrong: a sentence, or a list of `{loc, msg, type}` for invalid parameters' } }), additionalProperties: true },
    CatalogError: obj({ message: str, errors: { type: 'object', additionalProperties: { type: 'array', items: str }, description: 'Laravel validation errors: dotted field path → messages' } }, ['message'], true),
    Job: obj(
      {
        id: str,
        op: str,
        status: { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
        progress: { description: 'A fraction 0-1, or the operation\'s own progress object' },
        attempts: int,
        result: { description: 'The operation\'s answer, once succeeded' },
        error: { type: 'object', description: '`{status, detail, code?}` of a failed job' },
        created_at: str,
        started_at: str,
        finished_at: str,
      },
      ['id', 'op', 'status', 'created_at'],
      true,
    ),
    JobSubmission: obj({ job_id: str, status: str, status_url: str }, ['job_id', 'status', 'status_url'], true),
  };
  for (const r of Object.values(RESOURCES)) {
    out[recordName(r)] = recordSchema(r);
    if ((ROUTED as readonly string[]).includes(r.name)) out[pageName(r)] = page(ref(recordName(r)));
  }
  return out;
}

const DETAIL_TEXT: Record<string, string> = {
  '400': 'Malformed request: unreadable JSON or form body',
  '401': 'No valid bearer token',
  '403': 'The caller\'s role may not do this',
  '404': 'Unknown record, job or file',
  '405': 'Method not allowed on this path',
  '409': 'Conflicts with the current state (a job not finished, the same work already running)',
  '413': 'Request body over its size limit (the answer names the limit)',
  '415': 'Unsupported request media type',
  '422': 'Invalid parameters or structure (the answer names the field)',
  '429': 'Over the caller\'s rate budget; `Retry-After` says when to try again',
  '503': 'The job runner or a required service is unavailable',
  '504': 'The job did not finish in time; the detail names its id',
};

/** Error answers in the chemistry service's `{detail}` shape. */
export const detailErrors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), json(ref('Detail'), DETAIL_TEXT[c] ?? 'Error')]));
/** Error answers in the catalog's `{message, errors?}` shape. */
export const catalogErrors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), json(ref('CatalogError'), DETAIL_TEXT[c] ?? 'Error')]));
