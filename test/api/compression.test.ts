/**
 * HTTP compression (api/plugins/compress.ts, docs/operations.md "Compression"): Accept-Encoding
 * negotiation; on a bare Fastify with the plugin, what is compressed and what is not (threshold,
 * PNG, ranges, HEAD, an answer whose first bytes look like a zlib header, ETag and Vary, answers
 * compressed in the event loop and on libuv's threads, streams chunked); then on the inline app with 30 molecules: a catalog search answer in gzip and br
 * decodes to the very JSON of the plain answer, canonical SMILES (a quick call) and a PNG go out
 * as they are, an export stream and an export job's download decode to the plain bytes, MCP's
 * Streamable HTTP answers (hijacked) are never encoded, and COMPRESS_MIN_BYTES=0 turns it off.
 */
import t from 'tap';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import compress, { negotiate } from '../../api/plugins/compress.ts';
import { build } from '../helpers/app.ts';
import { seed } from '../search/export-helpers.ts';

const decode = (enc: unknown, body: Buffer) => (enc === 'br' ? brotliDecompressSync(body) : enc === 'gzip' ? gunzipSync(body) : body);

t.test('Accept-Encoding negotiation', async (t) => {
  t.equal(negotiate(undefined), undefined);
  t.equal(negotiate(''), undefined);
  t.equal(negotiate('identity'), undefined);
  t.equal(negotiate('gzip'), 'gzip');
  t.equal(negotiate('gzip, deflate'), 'gzip', 'node fetch, python requests');
  t.equal(negotiate('gzip, deflate, br, zstd'), 'br', 'browsers: br on a tie');
  t.equal(negotiate('br;q=0.5, gzip'), 'gzip', 'weights decide');
  t.equal(negotiate('*'), 'br');
  t.equal(negotiate('gzip;q=0, *'), 'br');
  t.equal(negotiate('br, *;q=0'), 'br');
  t.equal(negotiate('gzip;q=0, br;q=0'), undefined);
  t.equal(negotiate('GZIP'), 'gzip', 'case-insensitive');
  t.equal(negotiate('gzip;q=2'), undefined, 'an invalid weight accepts nothing');
  t.equal(negotiate('x'.repeat(1000)), undefined);
});

t.test('the plugin on a bare Fastify', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(compress, { minBytes: 1024 });
  const big = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `molecule ${i}` })) });
  // A text answer whose first two bytes ("80") read as a zlib header: @fastify/compress sends it unencoded (#347).
  const zlibLike = `80.06\n${'C'.repeat(3000)}\n`;
  app.get('/json', async () => JSON.parse(big));
  // Over SYNC_MAX_BYTES: compressed on libuv's threads.
  const huge = JSON.stringify({ data: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `molecule ${i}` })) });
  app.get('/huge', async (_req, reply) => reply.type('application/json').send(huge));
  app.get('/small', async () => ({ smiles: 'CCO' }));
  app.get('/zlib-like', async (_req, reply) => reply.type('text/plain').send(zlibLike));
  app.get('/png', async (_req, reply) => reply.type('image/png').send(Buffer.alloc(5000, 7)));
  app.get('/etag', async (_req, reply) => reply.header('etag', '"abc"').header('vary', 'Origin').type('chemical/x-mdl-sdfile').send('M  END\n'.repeat(500)));
  app.get('/partial', async (_req, reply) => reply.code(206).header('content-range', 'bytes 0-4999/9999').type('text/csv').send('x'.repeat(5000)));
  app.get('/stream', async (_req, reply) => reply.type('text/csv').send(Readable.from(Array.from({ length: 50 }, (_, i) => `${i},${'a'.repeat(200)}\r\n`))));
  const get = (url: string, enc?: string, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers: enc ? { 'accept-encoding': enc } : {} });

  for (const enc of ['gzip', 'br']) {
    const r = await get('/json', enc);
    t.equal(r.headers['content-encoding'], enc, `JSON: ${enc}`);
    t.equal(Number(r.headers['content-length']), r.rawPayload.length, `${enc}: Content-Length of the encoded bytes`);
    t.ok(r.rawPayload.length < big.length / 3, `${enc}: ${big.length} → ${r.rawPayload.length} bytes`);
    t.equal(decode(enc, r.rawPayload).toString(), big, `${enc}: decodes to the answer`);
    t.match(r.headers.vary, /accept-encoding/i);
  }
  for (const enc of ['gzip', 'br']) {
    const r = await get('/huge', enc);
    t.equal(r.headers['content-encoding'], enc, `${huge.length} bytes: ${enc}`);
    t.equal(Number(r.headers['content-length']), r.rawPayload.length);
    t.equal(decode(enc, r.rawPayload).toString(), huge, `${enc}: decodes to the answer`);
  }
  const plain = await get('/json');
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: plain');
  t.equal(plain.body, big);
  t.match(plain.headers.vary, /accept-encoding/i, 'plain, but Vary says it could have been encoded');

  const small = await get('/small', 'gzip, br');
  t.equal(small.headers['content-encoding'], undefined, 'below the threshold: plain');
  t.equal(small.headers.vary, undefined, 'and no Vary');
  t.equal((await get('/png', 'gzip, br')).headers['content-encoding'], undefined, 'PNG: never');

  const like = await get('/zlib-like', 'gzip');
  t.equal(like.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(like.rawPayload).toString(), zlibLike, 'a body that looks like zlib data is still encoded');

  const etag = await get('/etag', 'gzip');
  t.equal(etag.headers.etag, '"abc-gzip"', 'the ETag of the encoded bytes');
  t.equal(etag.headers.vary, 'Origin, Accept-Encoding', 'Vary kept and extended');
  t.equal((await get('/etag')).headers.etag, '"abc"');

  const partial = await get('/partial', 'gzip');
  t.equal(partial.statusCode, 206);
  t.equal(partial.headers['content-encoding'], undefined, 'a range: never');
  t.equal(partial.body.length, 5000);

  const head = await get('/json', 'gzip', 'HEAD');
  t.equal(head.headers['content-encoding'], undefined, 'HEAD: plain');

  const stream = await get('/stream', 'br');
  t.equal(stream.headers['content-encoding'], 'br', 'a stream: encoded');
  t.equal(stream.headers['transfer-encoding'], 'chunked', 'as it flows');
  t.equal(brotliDecompressSync(stream.rawPayload).toString(), (await get('/stream')).body);
});

t.test('on the api (inline runner)', async (t) => {
  const ctx = await build(t, 'inline', { EXPORT_SYNC_MAX: '1000' });
  if (!ctx) throw new Error('the inline app always builds');
  const { app, services } = ctx;
  const { auth } = await seed(app, services);
  const inject = (opts: { method?: 'GET' | 'POST'; url: string; payload?: object; enc?: string; headers?: Record<string, string> }) =>
    app.inject({ method: opts.method ?? 'GET', url: opts.url, payload: opts.payload, headers: { ...auth, ...opts.headers, ...(opts.enc ? { 'accept-encoding': opts.enc } : {}) } });

  const search = { method: 'POST' as const, url: '/api/molecules/search', payload: { search: { limit: 50 } } };
  const plain = await inject(search);
  t.equal(plain.statusCode, 200);
  t.equal(plain.json().data.length, 30);
  for (const enc of ['gzip', 'br']) {
    const r = await inject({ ...search, enc });
    t.equal(r.headers['content-encoding'], enc, `search of 30 molecules: ${enc}`);
    t.equal(r.headers['content-type'], 'application/json');
    t.same(JSON.parse(decode(enc, r.rawPayload).toString()), plain.json(), `${enc}: ${plain.rawPayload.length} → ${r.rawPayload.length} bytes, the same JSON`);
  }

  const quick = await inject({ url: '/latest/convert/canonicalsmiles?smiles=OCC', enc: 'gzip, deflate, br' });
  t.equal(quick.statusCode, 200);
  t.equal(quick.headers['content-encoding'], undefined, 'a quick call: plain');
  t.equal(quick.json(), 'CCO');
  const png = await inject({ url: '/depict/2D?smiles=c1ccccc1O&format=png&width=300&height=200', enc: 'gzip, br' });
  t.equal(png.headers['content-type'], 'image/png');
  t.equal(png.headers['content-encoding'], undefined, 'PNG: plain');

  const exp = { method: 'POST' as const, url: '/api/molecules/export', payload: { format: 'csv' } };
  const exported = await inject(exp);
  const gz = await inject({ ...exp, enc: 'gzip' });
  t.equal(gz.headers['content-encoding'], 'gzip', 'an export stream: encoded');
  t.equal(gz.headers['content-length'], undefined, 'chunked');
  t.same(gunzipSync(gz.rawPayload), exported.rawPayload, 'decodes to the plain export, byte for byte');

  const job = await inject({ ...exp, payload: { format: 'smi', async: true } });
  t.equal(job.statusCode, 202);
  const status = new URL(job.json().status_url as string).pathname;
  for (let i = 0; i < 300 && (await inject({ url: status })).json().status !== 'succeeded'; i++) await new Promise((r) => setTimeout(r, 100));
  const download = `${status}/download`;
  const whole = await inject({ url: download });
  const br = await inject({ url: download, enc: 'br' });
  t.equal(br.headers['content-encoding'], 'br', 'an export download: encoded');
  t.same(brotliDecompressSync(br.rawPayload), whole.rawPayload, 'decodes to the file');

  const mcp = await inject({
    method: 'POST',
    url: '/mcp',
    enc: 'gzip, br',
    headers: { accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  t.equal(mcp.statusCode, 200);
  t.equal(mcp.headers['content-encoding'], undefined, 'MCP Streamable HTTP (hijacked): plain');
  t.ok(mcp.body.length > 1024 && /"tools"/.test(mcp.body), 'its large answer as it is');
});

t.test('COMPRESS_MIN_BYTES=0: off', async (t) => {
  const ctx = await build(t, 'inline', { COMPRESS_MIN_BYTES: '0' });
  const r = await ctx!.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip, br' } });
  t.equal(r.statusCode, 200);
  t.ok(r.rawPayload.length > 10_000);
  t.equal(r.headers['content-encoding'], undefined);
  t.notMatch(String(r.headers.vary), /accept-encoding/i);
});
