/**
 * Answers to requests Node's HTTP parser refuses before Fastify sees them (a request line and
 * headers over `maxHeaderSize`, malformed HTTP, a header timeout): a 4xx with a `{"detail"}` body
 * naming the problem and `Connection: close`, then a graceful close.
 *
 * Fastify's default handler wrote its answer without `Connection: close` and destroyed the socket
 * at once. A keep-alive client (node:http's Agent, browsers, most HTTP libraries) read that
 * answer, took the connection for reusable, and sent its next request into a socket the server
 * had already destroyed: that request was reset ~10 ms later without any answer (issue 3: a
 * catalog search and a descriptor request that followed an over-long URL on the same connection).
 * Destroying a socket with unread input also makes the kernel send a reset, which can overtake
 * the answer on its way to the client. So: wait for a response still being written on this
 * connection, answer with `Connection: close`, half-close, and read and discard what the client
 * still sends for a short while before the socket is destroyed.
 */
import http from 'node:http';
import { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';

/** How long a refused connection may go on sending (discarded) before it is destroyed. */
const LINGER_MS = 2_000;
const handled = new WeakSet<Socket>();

/** What Node's parser puts on its errors (Fastify's typings describe `rawPacket` otherwise). */
interface ParserError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** Status and detail for a parser error. */
export function clientErrorAnswer(err: ParserError, maxHeaderSize = http.maxHeaderSize): { status: number; detail: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      // The request line counts toward the limit. When it alone is over it, the URL is at fault:
      // 414. The packet being parsed starts with this request's line unless the client sent it in
      // pieces or pipelined it behind another request; then the answer stays the generic 431.
      const packet = err.rawPacket?.subarray(0, maxHeaderSize + 1024).toString('latin1') ?? '';
      const lineEnd = packet.indexOf('\r\n');
      if (/^[A-Z]+ [^ \r\n]/.test(packet) && (lineEnd === -1 || lineEnd >= maxHeaderSize)) {
        return { status: 414, detail: `URI Too Long: the request line is over the ${maxHeaderSize}-byte limit of the request line and headers together; send large inputs in a request body (POST operations, MCP tools/call)` };
      }
      return { status: 431, detail: `Request Header Fields Too Large: the request line and headers are over ${maxHeaderSize} bytes together` };
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, detail: 'Payload Too Large: chunk extensions over the limit' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'Request Timeout: the request line, headers or body did not arrive in time' };
    default:
      return { status: 400, detail: `Bad Request: malformed HTTP request${err.reason ? ` (${err.reason})` : err.code ? ` (${err.code})` : ''}` };
  }
}

function rawAnswer(status: number, detail: string): Buffer {
  const body = Buffer.from(JSON.stringify({ detail }), 'utf8');
  const head =
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${body.length}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/**
 * Half-closes a connection after its last answer and reads (and drops) what the client still
 * sends for LINGER_MS before destroying it. Destroyed at once, a socket with unread input makes
 * the kernel send a reset, which can reach the client before it has read the answer: it then sees
 * a connection closed without any (issue 3: EPIPE or ECONNRESET while still sending a body).
 */
function lingeringClose(socket: Socket, last?: Buffer): void {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  if (last) socket.end(last);
  else socket.end();
}

/** Fastify's `clientErrorHandler` (called with the server's `clientError` event). */
export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (error, socket) => {
  const err = error as unknown as ParserError;
  // The parser reports every later chunk of a refused connection again: answer once.
  if (handled.has(socket)) return;
  handled.add(socket);
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = clientErrorAnswer(err);

  // A response of an earlier request on this connection may still be pending or being written
  // (pipelining): ours follows it, so the client pairs each answer with its request.
  let answered = false;
  const answer = () => {
    if (answered) return;
    const pending = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
    if (pending && !pending.writableFinished && !pending.destroyed) {
      pending.once('finish', () => setImmediate(answer));
      pending.once('close', () => setImmediate(answer));
      return;
    }
    answered = true;
    if (socket.destroyed) return;
    if (!socket.writable) return void socket.destroy();
    // What the client still sends goes to the failed parser, which drops it.
    socket.resume();
    lingeringClose(socket, rawAnswer(status, detail));
  };
  answer();
};

/**
 * Node's server closes a connection after an answer with `Connection: close` through
 * `socket.destroySoon()`, which destroys the socket once the answer is written. Fastify answers
 * that way when it refuses a body before reading it (413 over BODY_LIMIT or UPLOAD_LIMIT, a body
 * it cannot parse): the client is still sending, and the destroy resets the connection under
 * it. On the sockets of `server`, such a close lingers instead (the request's body still flowing
 * to nothing meanwhile); a close after a complete request is unchanged.
 */
export function lingerAfterEarlyAnswers(server: http.Server): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = function destroySoon(this: Socket) {
      const incoming = (this as Socket & { parser?: { incoming?: http.IncomingMessage | null } | null }).parser?.incoming;
      if (!incoming || incoming.complete || this.destroyed) return Socket.prototype.destroySoon.call(this);
      incoming.resume();
      lingeringClose(this);
    };
  });
}
