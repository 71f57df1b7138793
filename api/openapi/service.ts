/**
 * The service's own routes in the OpenAPI document: job polling, health (natprod's `/health` and
 * the original service's per-router `{"status": "OK"}`), the MCP transports, metrics, this
 * document itself, and `/`.
 */
import { detailErrors, json, obj, ref, type Schema } from './components.ts';

const str: Schema = { type: 'string' };
const ROUTERS = ['chem', 'convert', 'depict', 'tools', 'ocsr'];

export function servicePaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  const jobId = [{ name: 'id', in: 'path', required: true, schema: str }];
  paths['/jobs/{id}'] = {
    get: { operationId: 'get_job', security: [], tags: ['jobs'], summary: 'Status and result of a job', parameters: jobId, responses: { '200': json(ref('Job'), 'The job record'), ...detailErrors(404, 429, 503) } },
    delete: { operationId: 'cancel_job', security: [], tags: ['jobs'], summary: 'Cancel a queued or running job', parameters: jobId, responses: { '200': json(ref('Job'), 'The job record after cancellation'), ...detailErrors(404, 429, 503) } },
  };
  paths['/health'] = {
    get: {
      operationId: 'health',
      security: [],
      tags: ['service'],
      summary: "natprod's state: version, job runner, store, and each component (structure-search index, toolkits, OPSIN, demo import)",
      responses: { '200': json(obj({ status: str, version: str, jobs: { enum: ['inline', 'bullmq'] }, store: { enum: ['embedded', 'mongo'] } }, ['status', 'version', 'jobs', 'store'], true), 'Health') },
    },
  };
  const ok = { '200': json(obj({ status: { const: 'OK' } }), "The original service's router health") };
  for (const r of ROUTERS) {
    paths[`/${r}/health`] = { get: { operationId: `${r}_health`, security: [], tags: [r], summary: `Health of the ${r} router (as the original answers)`, responses: ok } };
    paths[`/${r}`] = { get: { operationId: `${r}_root`, security: [], tags: [r], summary: `The ${r} router (as the original answers)`, responses: ok } };
  }
  paths['/openapi.json'] = { get: { operationId: 'openapi', security: [], tags: ['service'], summary: 'This document', responses: { '200': json(obj({ openapi: str, info: { type: 'object' }, paths: { type: 'object' } }, ['openapi', 'info', 'paths'], true), 'OpenAPI 3.1') } } };
  paths['/metrics'] = {
    get: { operationId: 'metrics', security: [], tags: ['service'], summary: 'Prometheus metrics (text exposition format)', responses: { '200': { description: 'Metrics', content: { 'text/plain': { schema: str } } } } },
  };
  paths['/'] = { get: { operationId: 'home', security: [], tags: ['service'], summary: 'Redirects to HOMEPAGE_URL (the API documentation by default)', responses: { '307': { description: 'Redirect; `Location` is the page' } } } };
  // MCP (docs/mcp.md): JSON-RPC 2.0 messages, described by the MCP specification, not here.
  const rpc = { type: 'object', description: 'A JSON-RPC 2.0 message (or a batch) of the Model Context Protocol' };
  const mcpTags = ['mcp'];
  paths['/mcp'] = {
    post: {
      operationId: 'mcp_post',
      security: [],
      tags: mcpTags,
      summary: 'MCP streamable HTTP: send a JSON-RPC message; answers JSON or an event stream',
      requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [rpc, { type: 'array', items: rpc }] } } } },
      responses: {
        '200': { description: 'The answer', content: { 'application/json': { schema: {} }, 'text/event-stream': { schema: str } } },
        '202': { description: 'A notification or answer accepted' },
        ...detailErrors(400, 404, 406, 413, 415, 429),
      },
    },
    get: { operationId: 'mcp_stream', security: [], tags: mcpTags, summary: 'MCP: the legacy SSE stream (server-to-client events)', responses: { '200': { description: 'Events', content: { 'text/event-stream': { schema: str } } }, ...detailErrors(400, 405, 406, 429) } },
  };
  for (const [path, id] of [['/sse', 'mcp_sse'], ['/mcp/messages', 'mcp_messages'], ['/messages', 'mcp_legacy_messages']] as const) {
    paths[path] =
      path === '/sse'
        ? { get: { operationId: id, security: [], tags: mcpTags, summary: 'MCP over SSE (the original microservice\'s path): the event stream', responses: { '200': { description: 'Events', content: { 'text/event-stream': { schema: str } } }, ...detailErrors(429) } } }
        : {
            post: {
              operationId: id,
              security: [],
              tags: mcpTags,
              summary: 'MCP over SSE: a client message for the session named in the query',
              requestBody: { required: true, content: { 'application/json': { schema: rpc } } },
              responses: {
                '202': { description: 'Accepted; the answer comes on the stream' },
                // The SSE transport (the MCP SDK's) says what is wrong in plain text.
                '400': { description: 'No session named, or an unreadable message', content: { 'text/plain': { schema: str }, 'application/json': { schema: ref('Detail') } } },
                '404': { description: 'No such session (it ended, or another api holds it)', content: { 'text/plain': { schema: str }, 'application/json': { schema: ref('Detail') } } },
                ...detailErrors(413, 429),
              },
            },
          };
  }
  return paths;
}
