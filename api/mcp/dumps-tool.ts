/**
 * The MCP tool `list_dumps`: the catalog's dated full dumps, as `GET /api/dumps` lists them (the
 * manifests, newest first: date, software version, molecules, and per file its records, size,
 * SHA-256 and download URL). The files themselves are downloaded over HTTP (range requests
 * work), not through MCP.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { listDumps } from '../catalog/dumps/dump.ts';
import { dumpDir, dumpView } from '../catalog/dumps/routes.ts';
import type { CatalogTool } from './catalog-tools.ts';
import { Errors } from '../catalog/schema/types.ts';
import { json, READ_ONLY, toolFailure } from './catalog-tool.ts';

export const LIST_DUMPS = 'list_dumps';

export const LIST_DUMPS_TOOL: Tool = {
  name: LIST_DUMPS,
  title: 'Dated full dumps of the catalog',
  annotations: { title: 'Dated full dumps of the catalog', ...READ_ONLY },
  description: [
    'List the full dumps of the natural-product catalog',
    'Every complete dated dump (newest first) as GET /api/dumps lists it: its date, software version and molecule count, ' +
      'and each file (SDF 2D, SDF 3D when made, CSV lite, CSV full with organisms, NCBI taxon ids, DOIs and collections) ' +
      'with its record count, size, SHA-256 and download URL, and its gzip-compressed copy (`gz`: name, size, SHA-256, URL). ' +
      '`latest: true` gives only the newest dump.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${LIST_DUMPS}Arguments`,
    properties: {
      latest: { type: 'boolean', default: false, title: 'Latest', description: 'Only the newest dump' },
    },
    additionalProperties: false,
  },
};

export async function callListDumps(dir: string, baseUrl: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  try {
    const e = new Errors();
    for (const k of Object.keys(args ?? {})) if (k !== 'latest') e.add(k, `The ${k} field is prohibited: ${LIST_DUMPS} takes latest.`);
    if (args?.latest !== undefined && typeof args.latest !== 'boolean') e.add('latest', 'The latest field must be true or false.');
    e.throwIfAny();
    const all = (await listDumps(dir)).map((m) => dumpView(m, baseUrl));
    return json({ data: args?.latest === true ? all.slice(0, 1) : all });
  } catch (e) {
    return toolFailure(LIST_DUMPS, e);
  }
}

export const listDumpsTool: CatalogTool = {
  tool: LIST_DUMPS_TOOL,
  call: (deps, args) => callListDumps(dumpDir(deps.context.config), deps.context.baseUrl, args),
};
