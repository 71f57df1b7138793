/**
 * Real HTTP over a socket (node:http), so that what a client sees is what is counted: a status,
 * or a connection the server dropped before answering (reset, hang-up, a response cut short), or
 * no answer at all within the client's time limit.
 *
 * Keep-alive sockets are reused. A connection closed before any byte of an answer is a finding,
 * also on a reused socket: it was once excused as the keep-alive race (the server closing an idle
 * socket as the request left), but the server advertises its keep-alive timeout and Node's Agent
 * retires idle sockets a second before it, so the race cannot happen here; what it hid was the
 * server destroying a connection after an answer that promised keep-alive (issue 3: the request
 * after a 431 on the same socket was reset). Such a request is still sent once more on a fresh
 * connection, so that its own answer is classified too, and `Answer.retried` says why.
 */
import http from 'node:http';
import type { Req } from './types.ts';

export interface Answer {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  /** The body, cut at 256 KB. */
  body?: Buffer;
  /** Set when the connection failed before a complete answer: the error's code or message. */
  dropped?: string;
  /** No answer within the client's limit. */
  timedOut?: boolean;
  ms: number;
  /** The first try was closed without an answer on a reused keep-alive socket (this, `dropped`): the answer is the second try's, on a fresh one. */
  retried?: string;
}

const MAX_BODY = 256 * 1024;

export class Client {
  private readonly agent: http.Agent;
  /** Sockets that carried a request already (`req.reusedSocket` misses a socket handed to a queued request). */
  private readonly used = new WeakSet<object>();
  constructor(
    readonly host: string,
    readonly port: number,
    readonly timeoutMs: number,
    sockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, keepAliveMsecs: 1000, scheduling: 'lifo' });
  }

  async send(req: Req): Promise<Answer> {
    const first = await this.once(req, this.agent);
    if (first.dropped && first.reused && first.status === undefined) {
      const again = await this.once(req, false);
      return { ...again, retried: first.dropped };
    }
    return first;
  }

  private once(r: Req, agent: http.Agent | false): Promise<Answer & { reused?: boolean }> {
    const t0 = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      let status: number | undefined;
      let headers: http.IncomingHttpHeaders | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (a: Partial<Answer> & { reused?: boolean }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status, headers, ...a, ms: performance.now() - t0 });
      };
      const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, 'utf8');
      const hdrs: Record<string, string> = { ...(r.headers ?? {}) };
      const chunked = hdrs['transfer-encoding'] === 'chunked';
      if (body !== undefined && !chunked) hdrs['content-length'] = String(body.length);
      let req: http.ClientRequest;
      try {
        req = http.request({ host: this.host, port: this.port, method: r.method, path: r.path, headers: hdrs, agent, insecureHTTPParser: false });
      } catch (e) {
        // The request cannot even be written (e.g. a character Node refuses in a path): not sent.
        resolve({ dropped: undefined, status: -1, body: Buffer.from(String((e as Error).message)), ms: 0 });
        return;
      }
      let reused = false;
      req.on('socket', (sock) => {
        reused = this.used.has(sock);
        this.used.add(sock);
      });
      const timer = setTimeout(() => {
        done({ timedOut: true });
        req.destroy();
      }, this.timeoutMs);
      req.on('response', (res) => {
        status = res.statusCode;
        headers = res.headers;
        res.on('data', (c: Buffer) => {
          if (size < MAX_BODY) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => done({ body: Buffer.concat(chunks) }));
        res.on('aborted', () => done({ dropped: 'response aborted', body: Buffer.concat(chunks) }));
        res.on('error', (e: NodeJS.ErrnoException) => done({ dropped: `response ${e.code ?? e.message}`, body: Buffer.concat(chunks) }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        // The server may answer (413, 431) and close while the rest of the body is still being
        // written: an answer that arrived is an answer; the write error after it is not a drop.
        if (status !== undefined) return;
        done({ dropped: e.code ?? e.message, reused: reused || req.reusedSocket });
      });
      if (body !== undefined) {
        if (chunked) {
          // Several chunks, so that a limit can be hit in the middle of the stream.
          for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
          req.end();
        } else req.end(body);
      } else req.end();
    });
  }

  close() {
    this.agent.destroy();
  }
}
