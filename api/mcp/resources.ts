/**
 * Catalog records as MCP resources (JSON):
 *
 * - `natprod://molecule/{identifier}`: a molecule by its CNP identifier, as get_molecule answers
 *   it (properties, organisms with their lineage, citations, collections);
 * - `natprod://organism/{id}`, `natprod://citation/{id}`, `natprod://collection/{id}`: a record
 *   by its numeric id, as `POST /api/<r>/search` with a filter on `id` answers it.
 *
 * `resources/templates/list` gives the four templates; `resources/list` the collections (the
 * catalog's source data sets, a few hundred at most; molecules, organisms and citations are too
 * many to list and are read by template). Reading needs a reader token, as the REST routes do
 * (CatalogToolDeps.user); a failure is a JSON-RPC error whose `data` carries the REST status and
 * body; an unknown record is -32002 (resource not found).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { citations, collections, molecules, organisms, type ResourceDef } from '../catalog/schema/resources.ts';
import type { CatalogUser } from '../catalog/schema/types.ts';
import { catalogFailure } from './catalog-tool.ts';
import type { CatalogToolDeps } from './catalog-tools.ts';
import { getMoleculeRequest, restSearch, UNAUTHENTICATED } from './molecule-tools.ts';

/** JSON-RPC code of an unknown resource (the MCP specification's). */
export const RESOURCE_NOT_FOUND = -32002;
const MIME = 'application/json';
/** Collections per page of `resources/list`. */
export const LIST_PAGE = 50;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'natprod://molecule/{identifier}',
    name: 'molecule',
    title: 'Catalog molecule',
    description: 'A natural product by its COCONUT identifier (CNP0123456): the record with its properties, organisms (lineage, taxonomy ids), citations and collections.',
    mimeType: MIME,
  },
  {
    uriTemplate: 'natprod://organism/{id}',
    name: 'organism',
    title: 'Catalog organism',
    description: 'An organism by its numeric id: name, rank, lineage (domain .. variety), NCBI, GBIF, OTT and Wikidata ids, molecule count.',
    mimeType: MIME,
  },
  {
    uriTemplate: 'natprod://citation/{id}',
    name: 'citation',
    title: 'Catalog citation',
    description: 'A publication by its numeric id: DOI, title, authors, citation text.',
    mimeType: MIME,
  },
  {
    uriTemplate: 'natprod://collection/{id}',
    name: 'collection',
    title: 'Catalog collection',
    description: 'A source data set by its numeric id: title, description, identifier, URL.',
    mimeType: MIME,
  },
];

const BY_ID: Record<string, ResourceDef> = { organism: organisms, citation: citations, collection: collections };
const URI = /^natprod:\/\/(molecule|organism|citation|collection)\/([^/?#]+)$/;

/** A REST failure as a JSON-RPC error: the status and body in the message and in `data`. */
function restError(uri: string, status: number, body: unknown): McpError {
  return new McpError(ErrorCode.InvalidRequest, `Cannot read ${uri}. Status code: ${status}. Response: ${JSON.stringify(body)}`, { uri, status, body });
}

async function asUser<T>(deps: CatalogToolDeps, uri: string, fn: (user: CatalogUser) => Promise<T>): Promise<T> {
  let user: CatalogUser | undefined;
  try {
    user = await deps.user?.();
    if (!user) throw restError(uri, 401, UNAUTHENTICATED);
    return await fn(user);
  } catch (e) {
    if (e instanceof McpError) throw e;
    const { status, body } = catalogFailure(e);
    throw restError(uri, status, body);
  }
}

/** The JSON of the record a `natprod://` URI names. */
export async function readRecord(deps: CatalogToolDeps, user: CatalogUser, uri: string): Promise<Record<string, unknown>> {
  const m = URI.exec(uri);
  if (!m) throw new McpError(ErrorCode.InvalidParams, `Unknown resource URI ${uri}: use natprod://molecule/{identifier}, natprod://organism/{id}, natprod://citation/{id} or natprod://collection/{id}.`, { uri });
  const [, kind, key] = m;
  const notFound = () => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  if (kind === 'molecule') {
    const id = decodeURIComponent(key);
    if (!/^CNP\d{7}$/i.test(id)) throw new McpError(ErrorCode.InvalidParams, `${uri}: a molecule is named by its CNP identifier (CNP followed by 7 digits).`, { uri });
    const answer = await restSearch(molecules, getMoleculeRequest(id).body, deps, user);
    if (!answer.data.length) throw notFound();
    return answer.data[0];
  }
  if (!/^[1-9]\d{0,15}$/.test(key)) throw new McpError(ErrorCode.InvalidParams, `${uri}: a ${kind} is named by its numeric id.`, { uri });
  const answer = await restSearch(BY_ID[kind], { search: { filters: [{ field: 'id', operator: '=', value: Number(key) }] } }, deps, user);
  if (!answer.data.length) throw notFound();
  return answer.data[0];
}

/** Registers the catalog's resource handlers; `deps` gives the deps of the request being answered. */
export function registerCatalogResources(server: Server, deps: () => CatalogToolDeps) {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));

  server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
    const cursor = req.params?.cursor;
    const page = cursor === undefined ? 1 : Number(cursor);
    if (!Number.isInteger(page) || page < 1) throw new McpError(ErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor)}.`);
    const d = deps();
    return asUser(d, 'natprod://collection/', async (user) => {
      const answer = await restSearch(collections, { search: { sorts: [{ field: 'id', direction: 'asc' }], page, limit: LIST_PAGE } }, d, user);
      return {
        resources: answer.data.map((c) => ({
          uri: `natprod://collection/${c.id as number}`,
          name: `collection ${c.id as number}`,
          title: typeof c.title === 'string' && c.title ? c.title : `Collection ${c.id as number}`,
          ...(typeof c.description === 'string' && c.description ? { description: c.description } : {}),
          mimeType: MIME,
        })),
        ...(answer.current_page < answer.last_page ? { nextCursor: String(page + 1) } : {}),
      };
    });
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    const d = deps();
    const record = await asUser(d, uri, (user) => readRecord(d, user, uri));
    return { contents: [{ uri, mimeType: MIME, text: JSON.stringify(record, null, 2) }] };
  });
}
