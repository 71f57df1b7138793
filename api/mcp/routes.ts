/**
 * MCP over HTTP: legacy SSE (`GET /mcp` + `POST /mcp/messages/?session_id=`) for clients such as
 * `mcp-remote --transport sse-only`, also at the paths the MCP Inspector and several desktop
 * clients assume (`GET /sse` + `POST /messages?sessionId=`), and stateless Streamable HTTP on
 * `POST /mcp` (a fresh server per request, so any api replica can answer any call). Streamable
 * HTTP answers JSON, or an event stream when the call carries a progressToken (so that its
 * progress notifications reach the client before the result).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SseTransport } from './sse.ts';
import type { ApiContext } from '../chem/context.ts';
import { createMcpServer, type McpOptions } from './tools.ts';
import type { ExportOptions } from '../catalog/export/routes.ts';
import { McpExports } from './export-tool.ts';

export interface McpRouteOptions extends Omit<McpOptions, 'context' | 'user' | 'exportJobs'> {
  context: (req: FastifyRequest) => ApiContext;
  /** The catalog's exports (export_molecules, export_status), on the catalog's export directory. */
  exports?: ExportOptions;
  /** Tool calls may carry an uploaded PDF base64-encoded. */
  bodyLimit: number;
}

/** Whether a POSTed JSON-RPC message (or batch) asks for progress (`params._meta.progressToken`). */
export function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

export async function mcpRoutes(app: FastifyInstance, opts: McpRouteOptions) {
  // The catalog tools act as the user of the request's token (SSE: the token of the GET that
  // opened the stream, checked again at each call: a session outlives a revoked token).
  const exportJobs = opts.exports ? new McpExports(opts.exports, { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m), error: (m) => app.log.error(m) }) : undefined;
  if (exportJobs) app.addHook('onClose', () => exportJobs.close());
  const sessionUser = (req: FastifyRequest) => () => {
    const m = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '');
    return m ? app.userOfToken(m[1]) : Promise.resolve(undefined);
  };
  const serverFor = (req: FastifyRequest, session = false) =>
    createMcpServer({ ...opts, exportJobs, context: () => opts.context(req), user: session ? sessionUser(req) : () => req.caller.user() });
  const sessions = new Map<string, SseTransport>();

  // A hijacked reply writes its own head: keep the headers the hooks set (CORS, rate limits).
  const hijack = (reply: FastifyReply) => {
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
  };

  const sse = (endpoint: string, param: 'session_id' | 'sessionId') => async (req: FastifyRequest, reply: FastifyReply) => {
    // HEAD (Fastify's automatic route for this GET): the stream's headers, and no session. A
    // stream on a HEAD never sends its headers (no body ever flushes them) and never ends.
    if (req.method === 'HEAD') return reply.code(200).type('text/event-stream').send();
    hijack(reply);
    const transport = new SseTransport(reply.raw, endpoint, param);
    sessions.set(transport.sessionId, transport);
    transport.onclose = () => sessions.delete(transport.sessionId);
    await serverFor(req, true).connect(transport);
  };
  const quick = { config: { budget: 'quick' as const } };
  app.get('/mcp', quick, sse('/mcp/messages/', 'session_id'));
  app.get('/sse', quick, sse('/messages', 'sessionId'));

  const post = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, string | undefined>;
    const id = q.session_id ?? q.sessionId;
    if (!id) return reply.code(400).type('text/plain').send('session_id is required');
    if (!/^[0-9a-f]{32}$/.test(id)) return reply.code(400).type('text/plain').send('Invalid session ID');
    const transport = sessions.get(id);
    if (!transport) return reply.code(404).type('text/plain').send('Could not find session');
    try {
      transport.receive(req.body);
    } catch {
      return reply.code(400).send({ error: 'Could not parse message' });
    }
    return reply.code(202).send({ message: 'Accepted' });
  };
  app.post('/mcp/messages', { ...quick, bodyLimit: opts.bodyLimit }, post);
  app.post('/messages', { ...quick, bodyLimit: opts.bodyLimit }, post);

  app.post('/mcp', { ...quick, bodyLimit: opts.bodyLimit }, async (req: FastifyRequest, reply: FastifyReply) => {
    hijack(reply);
    const server = serverFor(req);
    // JSON answers, except for a call that asked for progress: its notifications need a stream.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsProgress(req.body) });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });

  // Stateless: no server-initiated stream and no session to delete.
  app.delete('/mcp', async (_req, reply) => reply.code(405).header('allow', 'GET, POST').send({ detail: 'Method Not Allowed' }));

  app.addHook('onClose', async () => {
    for (const t of sessions.values()) await t.close();
  });
}
