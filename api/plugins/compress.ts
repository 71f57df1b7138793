/**
 * HTTP compression of answers (docs/operations.md, "Compression"): an answer of a compressible
 * type (JSON, text, CSV, SDF, MOL, SVG, HTML, JavaScript) of at least COMPRESS_MIN_BYTES goes out
 * br- or gzip-encoded when the request's Accept-Encoding accepts it (br when both are equally
 * welcome). A whole answer (a string or Buffer) is compressed at once and sent with its
 * Content-Length: in the event loop up to SYNC_MAX_BYTES (on a busy 2-core machine the handoff to
 * libuv's threads and back cost more than compressing 40 KB of JSON), on libuv's threads above;
 * a stream (exports, export and dump downloads) is compressed as it flows, chunked, never buffered.
 *
 * Never compressed: answers below the threshold (quick calls are unchanged, byte for byte),
 * PNG, PDF, gzip files and other binary types, a range (206, or any answer with Content-Range:
 * its offsets are of the plain bytes), HEAD, 204 and 304, an answer already carrying a
 * Content-Encoding (a dump served from its `.gz` file), and Server-Sent Events (MCP's SSE and
 * Streamable HTTP hijack their reply, so they never reach this hook, and `text/event-stream` is
 * left out in any case). An eligible answer gets `Vary: Accept-Encoding` whether or not this
 * client took the encoding, and a strong ETag becomes that of the encoded bytes (`"<tag>-gzip"`).
 *
 * The hook is added to each route as its last onSend hook (like @fastify/compress, through
 * onRoute), so it sees the answer after every other hook, the encapsulated ones included.
 * @fastify/compress itself is not used: it sends an answer whose first two bytes happen to look
 * like a zlib header (`80…`, `x …`, `hb…`) unencoded under a `Content-Encoding` header
 * (fastify/fastify-compress#347), and decompresses request bodies on every route.
 */
import { pipeline, type Readable } from 'node:stream';
import { constants, brotliCompress, brotliCompressSync, createBrotliCompress, createGzip, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

export type Encoding = 'br' | 'gzip';

/**
 * Brotli quality 4 and gzip level 6: on a 50-record catalog search (bench/compression.ts) br at
 * its default quality 11 takes about 150 times the CPU of quality 4 (52 against 0.34 ms) for
 * 14 % fewer bytes.
 */
export const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
export const GZIP: ZlibOptions = { level: 6 };
/**
 * Whole answers up to this size are compressed in the event loop: a 50-record search (37 KB)
 * takes 0.4 ms (gzip) or 0.3 ms (br) there, and compressed on libuv's threads it came back 1.1 ms
 * after the plain answer (p50) on a loaded 2-core machine, 0.5 ms in the event loop. Larger
 * answers (the 280 KB OpenAPI document: ~3 ms) go to the threads, off the event loop.
 */
export const SYNC_MAX_BYTES = 64 * 1024;

/** Compressible media types (the part before any `;`). */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript|x-ndjson)|image\/svg\+xml|chemical\/x-mdl-(?:sdfile|molfile|rxnfile))\s*(?:;|$)/i;

export const compressible = (type: unknown): boolean => typeof type === 'string' && COMPRESSIBLE.test(type);

/** The weight (q) an Accept-Encoding header gives br and gzip (-1: not named, nor `*`). */
function weights(header: string): Record<Encoding, number> {
  let br = -1;
  let gz = -1;
  let any = -1;
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';');
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q >= 0 && q <= 1)) q = 0;
    const coding = name.trim();
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gz = q;
    else if (coding === '*') any = q;
  }
  return { br: br < 0 ? any : br, gzip: gz < 0 ? any : gz };
}

/** The encoding to use for an Accept-Encoding header, or undefined (none acceptable, or none asked). */
export function negotiate(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const w = weights(header);
  if (w.br <= 0 && w.gzip <= 0) return undefined;
  return w.br >= w.gzip ? 'br' : 'gzip';
}

/** Whether an Accept-Encoding header accepts `enc` at all (a dump's `.gz` file is sent to any client that takes gzip). */
export const accepts = (header: string | undefined, enc: Encoding): boolean => !!header && weights(header)[enc] > 0;

/** A strong ETag of the encoded bytes (`"abc"` → `"abc-gzip"`); weak ones are left as they are. */
const encodedEtag = (etag: unknown, enc: Encoding) => (typeof etag === 'string' && /^"[^"]*"$/.test(etag) ? `${etag.slice(0, -1)}-${enc}"` : etag);

/** Adds Accept-Encoding to the answer's Vary header (kept: what is there, such as Origin). */
export function addVary(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'Accept-Encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, Accept-Encoding`);
}

const isStream = (p: unknown): p is Readable => typeof p === 'object' && p !== null && typeof (p as Readable).pipe === 'function';

/** The onSend hook: compresses the answer when it is eligible and the client accepts it. */
export function compressHook(minBytes: number): onSendHookHandler<unknown> {
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, p?: unknown) => void) => {
    if (payload == null || req.method === 'HEAD') return done(null, payload);
    const status = reply.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return done(null, payload);
    if (!compressible(reply.getHeader('content-type')) || reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) return done(null, payload);
    let size: number | undefined;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) size = Buffer.byteLength(payload);
    else if (!isStream(payload)) return done(null, payload);
    else if (reply.hasHeader('content-length')) size = Number(reply.getHeader('content-length'));
    if (size !== undefined && size < minBytes) return done(null, payload);
    addVary(reply);
    const enc = negotiate(req.headers['accept-encoding']);
    if (!enc) return done(null, payload);
    reply.header('content-encoding', enc);
    if (reply.hasHeader('etag')) reply.header('etag', encodedEtag(reply.getHeader('etag'), enc));
    if (isStream(payload)) {
      reply.removeHeader('content-length');
      const zip = enc === 'br' ? createBrotliCompress(BROTLI) : createGzip(GZIP);
      // A failing source destroys `zip` with its error, which Fastify sees on the stream it sends.
      pipeline(payload, zip, () => {});
      return done(null, zip);
    }
    const input = typeof payload === 'string' ? Buffer.from(payload) : (payload as Buffer);
    const br: BrotliOptions = { params: { ...BROTLI.params, [constants.BROTLI_PARAM_SIZE_HINT]: input.length } };
    const after = (err: Error | null, out: Buffer) => {
      if (err) return done(err);
      reply.header('content-length', out.length);
      done(null, out);
    };
    if (input.length <= SYNC_MAX_BYTES) {
      let out: Buffer;
      try {
        out = enc === 'br' ? brotliCompressSync(input, br) : gzipSync(input, GZIP);
      } catch (e) {
        return done(e as Error);
      }
      return after(null, out);
    }
    if (enc === 'br') brotliCompress(input, br, after);
    else gzip(input, GZIP, after);
  };
}

async function compress(app: FastifyInstance, opts: { minBytes: number }) {
  if (opts.minBytes <= 0) return;
  const hook = compressHook(opts.minBytes);
  // Each route's own last onSend hook: after the hooks of every context (they run first).
  app.addHook('onRoute', (route) => {
    const own = route.onSend;
    route.onSend = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
  });
}

export default fp(compress, { name: 'natprod-compress' });
