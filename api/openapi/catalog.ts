/**
 * The catalog's Lomkit routes in the OpenAPI document, per resource: detail, search, mutate,
 * actions, delete and audits. The request schemas are generated from what the validators check
 * (api/catalog/search/lomkit/validate.ts, mutate/mutate-parse.ts): the resource's fields, scopes,
 * limits, relations and actions, the filter operators, gates and aggregate types. The validators
 * themselves are hand-written, so that their 422 answers carry Laravel's messages word for word
 * (COCONUT's clients read them); the document is read off the same constants.
 */
import { RESOURCES, ROUTED } from '../catalog/schema/resources.ts';
import type { ResourceDef } from '../catalog/schema/define.ts';
import { AGG, GATES, OPERATORS } from '../catalog/search/index.ts';
import { REL_OPS } from '../catalog/mutate/mutate-parse.ts';
import { catalogErrors, json, obj, pageName, ref, recordName, type Schema } from './components.ts';

const body = (schema: Schema, description: string) => ({ required: true, description, content: { 'application/json': { schema } } });
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

/** A Lomkit filter (recursive through `nested`). */
export const FILTER: Schema = obj(
  {
    field: { type: 'string', description: 'A field, or a relation path `relation.field`' },
    operator: { enum: OPERATORS, default: '=' },
    value: { description: 'A string, number, boolean or null; a list for `in` / `not in`' },
    type: { enum: ['and', 'or'], default: 'and' },
    nested: { type: 'array', items: { $ref: '#/components/schemas/Filter' } },
    threshold: { type: 'number', minimum: 0, maximum: 1, description: '`similar`: the Tanimoto threshold' },
    use_chirality: { type: 'boolean' },
    query_type: { enum: ['smiles', 'smarts'] },
  },
  [],
);

function searchBody(r: ResourceDef): Schema {
  const fields = Object.keys(r.fields);
  const search: Record<string, Schema> = {
    scopes: { type: 'array', items: obj({ name: { enum: r.scopes }, parameters: { type: 'array', items: str } }, ['name']) },
    filters: { type: 'array', items: ref('Filter') },
    sorts: { type: 'array', items: obj({ field: { enum: fields }, direction: { enum: ['asc', 'desc'], default: 'asc' } }, ['field']) },
    selects: { type: 'array', items: obj({ field: { enum: fields } }) },
    includes: {
      type: 'array',
      items: { type: 'object', required: ['relation'], properties: { relation: { enum: r.relations.map((x) => x.name) } }, additionalProperties: true, description: 'A relation, with its own filters, sorts, selects, limit' },
    },
    aggregates: {
      type: 'array',
      items: obj({ relation: { enum: r.relations.map((x) => x.name) }, type: { enum: AGG }, field: str, alias: str, filters: { type: 'array', items: ref('Filter') } }, ['relation', 'type']),
    },
    gates: { type: 'array', items: { enum: GATES } },
    page: { type: 'integer', minimum: 1, default: 1 },
    limit: { enum: r.limits, default: r.limits[0] },
  };
  return obj({ search: obj(search, []) }, []);
}

function mutateBody(r: ResourceDef): Schema {
  const attributes = { type: 'object', description: `Fields of ${r.name}: ${Object.keys(r.fields).filter((f) => !r.readOnly?.includes(f) && f !== 'id').join(', ')}`, additionalProperties: true };
  const relation = obj({ operation: { enum: REL_OPS }, key: int, attributes, pivot: { type: 'object' } }, ['operation'], true);
  const relations = { type: 'object', properties: Object.fromEntries(r.relations.map((x) => [x.name, x.kind === 'HasOne' ? relation : { type: 'array', items: relation }])), additionalProperties: false };
  const op = obj({ operation: { enum: ['create', 'update'] }, key: int, attributes, relations }, ['operation']);
  return obj({ mutate: { type: 'array', minItems: 1, items: op } });
}

const ids: Schema = { type: 'array', items: int };

export function resourcePaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  const security = [{ bearer: [] }];
  const auth = [401, 403, 429];
  for (const name of ROUTED) {
    const r = RESOURCES[name];
    const tags = [`catalog: ${name}`];
    const record = ref(recordName(r));
    paths[`/api/${name}`] = {
      get: {
        operationId: `catalog_${name}_detail`,
        tags,
        security,
        summary: `Describe ${name}: fields, relations, scopes, actions, rules`,
        responses: { '200': json(obj({ data: obj({ actions: { type: 'array', items: { type: 'object' } }, instructions: { type: 'array' }, scout_instructions: { type: 'array' }, fields: { type: 'array', items: str }, scout_fields: { type: 'array' }, limits: { type: 'array', items: int }, scopes: { type: 'array', items: str }, relations: { type: 'array', items: { type: 'object' } }, rules: { type: 'object' } }, ['fields', 'relations', 'scopes', 'actions', 'limits', 'rules'], true) }), 'Lomkit detail'), ...catalogErrors(...auth) },
      },
      delete: {
        operationId: `catalog_${name}_delete`,
        tags,
        security,
        summary: `Delete ${name} by id (admin)`,
        requestBody: body(obj({ resources: { ...ids, minItems: 1 } }), 'The ids to delete'),
        responses: { '200': json(obj({ data: { type: 'array', items: record }, meta: {} }, ['data']), 'The deleted records'), ...catalogErrors(...auth, 400, 413, 415, 422, 503) },
      },
    };
    paths[`/api/${name}/search`] = {
      post: {
        operationId: `catalog_${name}_search`,
        tags,
        security,
        summary: `Search ${name}`,
        requestBody: body(searchBody(r), 'Lomkit search: scopes, filters, sorts, selects, includes, aggregates, gates, page, limit'),
        responses: { '200': json(ref(pageName(r)), 'Paginated records'), ...catalogErrors(...auth, 400, 413, 415, 422, 503, 504) },
      },
    };
    paths[`/api/${name}/mutate`] = {
      post: {
        operationId: `catalog_${name}_mutate`,
        tags,
        security,
        summary: `Create or update ${name} (${name === 'users' ? 'admin' : name === 'reports' ? 'reader' : 'curator'})`,
        requestBody: body(mutateBody(r), 'Lomkit mutate: operations with attributes and relations'),
        responses: { '200': json(obj({ created: ids, updated: ids }), 'The ids created and updated'), ...catalogErrors(...auth, 400, 409, 413, 415, 422, 503, 504) },
      },
    };
    {
      paths[`/api/${name}/actions/{action}`] = {
        post: {
          operationId: `catalog_${name}_action`,
          tags,
          security,
          summary: r.actions.length ? `Run an action on ${name}: ${r.actions.map((a) => a.uriKey).join(', ')}` : `Actions on ${name} (it has none: every name answers 404)`,
          parameters: [{ name: 'action', in: 'path', required: true, schema: r.actions.length ? { type: 'string', enum: r.actions.map((a) => a.uriKey) } : str }],
          requestBody: body(obj({ search: { type: 'object', description: 'A Lomkit search body choosing the records' }, fields: { type: 'object' } }, []), '`{"search": {...}, "fields": {...}}`: the records to act on and the action\'s fields'),
          responses: { '200': json(obj({ data: obj({ impacted: int }) }), 'How many records the action changed'), ...catalogErrors(...auth, 400, 404, 413, 415, 422, 503, 504) },
        },
      };
    }
    if (r.collection) {
      paths[`/api/${name}/{id}/audits`] = {
        get: {
          operationId: `catalog_${name}_audits`,
          tags,
          security,
          summary: `The audit trail of one ${name} record (curators)`,
          parameters: [{ name: 'id', in: 'path', required: true, schema: int }],
          responses: { '200': json(obj({ data: { type: 'array', items: ref(recordName(RESOURCES.audits)) } }), 'Audit entries, oldest first'), ...catalogErrors(...auth, 404) },
        },
      };
    }
  }
  return paths;
}

export const componentFilter = { Filter: FILTER };
