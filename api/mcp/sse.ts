/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05) as the original service spoke it: `GET /mcp`
 * opens an event stream whose first event `endpoint` names `/mcp/messages/?session_id=<hex>`
 * (`GET /sse` names `/messages?sessionId=<hex>`, the paths most clients assume); each JSON-RPC
 * message is POSTed there and answered on the stream. Sessions live in this
 * process's memory, so behind several api replicas SSE clients need sticky routing (Streamable
 * HTTP on `POST /mcp` is stateless and has no such constraint).
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class SseTransport implements Transport {
  readonly sessionId = randomBytes(16).toString('hex');
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private keepAlive?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly endpoint: string,
    /** The query parameter of the endpoint that carries the session id. */
    private readonly param: 'session_id' | 'sessionId' = 'session_id',
  ) {}

  async start(): Promise<void> {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.write(`event: endpoint\ndata: ${this.endpoint}?${this.param}=${this.sessionId}\n\n`);
    // Comments keep proxies from closing an idle stream.
    this.keepAlive = setInterval(() => this.res.write(': keep-alive\n\n'), 15_000);
    this.keepAlive.unref();
    this.res.on('close', () => this.finish());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('SSE stream closed');
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A POSTed body; throws on something that is not a JSON-RPC message. */
  receive(body: unknown): void {
    const parsed = JSONRPCMessageSchema.safeParse(body);
    if (!parsed.success) throw new Error('Could not parse message');
    this.onmessage?.(parsed.data);
  }

  async close(): Promise<void> {
    this.res.end();
    this.finish();
  }

  private finish() {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.onclose?.();
  }
}
