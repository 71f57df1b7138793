/**
 * Requests that are wrong as HTTP: over-long URLs and headers, bodies beyond BODY_LIMIT and
 * UPLOAD_LIMIT, broken encodings, odd methods and paths; job ids of every shape; PDF uploads that
 * are truncated, encrypted or no PDF at all (multipart and JSON); and the known cases reported
 * to answer 500 or drop the connection.
 */
import { corpus } from '../corpus.ts';
import type { Rng } from '../prng.ts';
import type { Case, Context } from '../types.ts';
import { validSmiles } from './structures.ts';
import { likePattern } from './catalog.ts';
import { hostileJson, hostileString, pct } from './values.ts';

export interface Limits {
  bodyLimit: number;
  uploadLimit: number;
}

const CHEM_GETS = ['/convert/canonicalsmiles', '/chem/errors', '/chem/descriptors', '/depict/2D', '/latest/convert/inchi', '/v1/chem/HOSEcode'];

export function rawHttp(rng: Rng, ctx: Context, limits: Limits): Case {
  const c = (label: string, method: string, path: string, headers?: Record<string, string>, body?: string | Buffer): Case => ({ target: 'http:raw', label, req: { method, path, headers, body } });
  return rng.weighted<() => Case>([
    [3, () => c('URL over 100 KB', 'GET', `${rng.pick(CHEM_GETS)}?smiles=${'C'.repeat(rng.pick([100_001, 150_000, 400_000]))}`)],
    [1, () => c('URL over 100 KB, unknown route', 'GET', `/${'a'.repeat(110_000)}`)],
    [1, () => c('URL just under the header limit', 'GET', `/convert/canonicalsmiles?smiles=${'C'.repeat(rng.pick([8_000, 15_000, 16_300]))}`)],
    [1, () => c('header over 16 KB', 'GET', '/health', { 'x-fuzz': 'x'.repeat(rng.pick([17_000, 70_000])) })],
    [1, () => c('many headers', 'GET', '/convert/canonicalsmiles?smiles=CCO', Object.fromEntries(Array.from({ length: rng.pick([100, 2500]) }, (_, i) => [`x-h${i}`, 'v'])))],
    [3, () => {
      const path = rng.pick(['/chem/standardize', '/chem/all_filters', '/api/molecules/search', '/api/search', '/api/molecules/mutate', '/chem/errors']);
      const size = limits.bodyLimit + rng.pick([1, 1000, 1_000_000]);
      const json = path.startsWith('/api');
      const body = json ? JSON.stringify({ search: { filters: [{ field: 'name', operator: '=', value: 'x'.repeat(size) }] } }) : 'C'.repeat(size);
      const headers: Record<string, string> = { 'content-type': json ? 'application/json' : 'text/plain', authorization: `Bearer ${ctx.tokens.admin}` };
      if (rng.bool(0.3)) headers['transfer-encoding'] = 'chunked';
      return c(`body over BODY_LIMIT${headers['transfer-encoding'] ? ' (chunked)' : ''}`, 'POST', path, headers, body);
    }],
    [1, () => c('multipart upload over UPLOAD_LIMIT', 'POST', rng.pick(['/tools/extract_text', '/tools/extract_json']), ...multipart([{ name: 'pdf_file', filename: 'big.pdf', data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(limits.uploadLimit + rng.pick([1, 100_000]), 0x20)]) }]))],
    [2, () => c('bad percent-encoding in path', 'GET', rng.pick(['/%', '/chem/%ZZ', '/convert/canonicalsmiles%', '/%E0%A4%A', '/api/%C0%AF', '/jobs/%ED%A0%80', '/%00', '/chem/errors%3Fsmiles=C']))],
    [2, () => c('odd path', rng.pick(['GET', 'POST', 'DELETE']), rng.pick(['//convert//canonicalsmiles?smiles=CCO', '/latest/latest/convert/inchi?smiles=C', '/chem/../api/molecules', '/./health', '/convert/canonicalsmiles/?smiles=CCO', '/CONVERT/CANONICALSMILES?smiles=CCO', '/v2/convert/inchi?smiles=C', '/docs/../../etc/passwd', '/openapi.json?x=%00', '/metrics?name[]=x', '/health?'.padEnd(500, '&'), '/convert/smiles?input_text=CCO&&&&&=&=', '/convert/smiles?=CCO', '/convert/smiles?input_text', '/admin/queues', '/admin/queues/api/queues', '/mcp/messages/?session_id=0123456789abcdef0123456789abcdef']))],
    [2, () => c('odd method', rng.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'SEARCH', 'LOCK']), rng.pick(['/convert/canonicalsmiles?smiles=CCO', '/chem/standardize', '/api/molecules', '/jobs/x', '/health', '/mcp', '/api/search']), { origin: rng.pick(['https://evil.example', 'null', 'http://localhost']), 'access-control-request-method': rng.pick(['POST', 'DELETE', 'PUT']) })],
    [2, () => c('JSON body that is no JSON', 'POST', rng.pick(['/api/molecules/search', '/api/search', '/chem/all_filters', '/api/molecules/mutate', '/mcp']), { 'content-type': 'application/json', authorization: `Bearer ${ctx.tokens.admin}`, accept: 'application/json, text/event-stream' }, rng.pick(['', '{', '}', '[', '{"search":', 'nul', '\ufeff{"search":{}}', '{"search":{}}garbage', '{"a":1e999999}', '{"a":"\\ud800"}', '{"a":"\\u00"}', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '[' .repeat(100_000) + ']'.repeat(100_000), '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)]))],
    [1, () => c('content-type oddities', 'POST', rng.pick(['/api/molecules/search', '/chem/standardize', '/api/search']), { 'content-type': rng.pick(['application/json; charset=utf-16', 'application/json; charset=ebcdic', 'application/json;;;', 'application/json, text/plain', 'APPLICATION/JSON', 'application/jsonx', 'text/plain; charset="', 'multipart/form-data; boundary=', 'application/x-www-form-urlencoded']), authorization: `Bearer ${ctx.tokens.admin}` }, '{"search":{}}')],
    [1, () => c('accept-encoding and range', 'GET', '/openapi.json', { 'accept-encoding': rng.pick(['gzip;q=2', 'br, *;q=0', 'x'.repeat(1000), 'identity;q=0']), range: rng.pick(['bytes=0-0', 'bytes=-1', 'bytes=99999999-', 'x']) })],
    [1, () => c('Bull Board with a junk cookie', 'GET', rng.pick(['/admin/queues', '/admin/queues/api/queues', '/admin/queues/queue/chem-quick']), { cookie: rng.pick(['natprod_admin=%', 'natprod_admin=%E0%A4%A', `natprod_admin=${ctx.tokens.admin}`, `natprod_admin=${encodeURIComponent(ctx.tokens.reader)}`, 'natprod_admin=', 'natprod_admin', '=;=;natprod_admin==', `natprod_admin=${'x'.repeat(5000)}`]) })],
    [4, () => jobs(rng)],
    [1, () => c('operations routes', rng.pick(['GET', 'GET', 'HEAD']), rng.pick(['/health', '/latest/chem/health', '/metrics', '/docs', '/openapi.json', '/docs/static/index.html', '/docs/json', '/']))],
  ])();
}

function jobs(rng: Rng): Case {
  const id = rng.pick(['x', '0', '-1', '1.1', '1.99999', '.', '..', '%2e%2e', '1.', '.1', 'a.b.c', '00000000-0000-0000-0000-000000000000', 'x'.repeat(101), 'x'.repeat(5000), '%00', '%ff', '__proto__', 'constructor', 'toString', '%24where', 'bull%3Achem-quick%3A1', '1.2.3.4', 'chemclass:AAAAAAAAAAAAAA', String(2 ** 53), '1e400.1']);
  return { target: 'http:jobs', label: 'job id', req: { method: rng.pick(['GET', 'GET', 'DELETE']), path: `${rng.pick(['', '/latest', '/v1'])}/jobs/${id}` } };
}

/** A multipart body with the given parts (raw bytes, so it can be broken on purpose). */
export function multipart(parts: { name: string; filename?: string; data: Buffer | string; type?: string }[], boundary = 'fuzzboundary7MA4YWxkTrZu0gW', opts: { truncate?: number; noClose?: boolean } = {}): [Record<string, string>, Buffer] {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.filename !== undefined ? `Content-Type: ${p.type ?? 'application/pdf'}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  if (!opts.noClose) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let body = Buffer.concat(chunks);
  if (opts.truncate !== undefined) body = body.subarray(0, opts.truncate);
  return [{ 'content-type': `multipart/form-data; boundary=${boundary}` }, body];
}

function damagedPdf(rng: Rng): { data: Buffer; why: string } {
  const pdf = rng.pick(corpus().pdfs);
  const b = pdf.bytes;
  return rng.weighted<() => { data: Buffer; why: string }>([
    [3, () => ({ data: b, why: `valid ${pdf.name}` })],
    [3, () => ({ data: b.subarray(0, rng.int(5, b.length - 1)), why: 'truncated' })],
    [2, () => {
      const d = Buffer.from(b);
      for (let i = 0; i < rng.int(1, 50); i++) d[rng.int(0, d.length - 1)] = rng.int(0, 255);
      return { data: d, why: 'bytes flipped' };
    }],
    [2, () => ({ data: corpus().pdfs.find((p) => p.name === 'password.pdf')!.bytes, why: 'encrypted' })],
    [2, () => ({ data: Buffer.from(rng.pick(['\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'PK\x03\x04', 'GIF89a', '{"json":true}', 'hello', '', '\0\0\0\0'])), why: 'not a PDF' })],
    [2, () => ({ data: Buffer.from(rng.pick(['%PDF-', '%PDF-1.7\n', '%PDF-1.4\n%%EOF', '%PDF-9.9\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF', `%PDF-1.4\n${'1 0 obj [' .repeat(5000)}`, `%PDF-1.4\n1 0 obj << /Length 99999999 >> stream\n${'x'.repeat(100)}`])), why: 'PDF magic, then junk' })],
    [1, () => ({ data: Buffer.concat([Buffer.from('junk before the header '), b]), why: 'header not at the start' })],
    [1, () => ({ data: Buffer.from(b.toString('latin1').replace(/\/Count \d+/, '/Count 99999999'), 'latin1'), why: 'page count lies' })],
    [1, () => ({ data: Buffer.from(b.toString('latin1').replace(/xref[\s\S]*$/, ''), 'latin1'), why: 'no xref table' })],
  ])();
}

export function pdfUpload(rng: Rng): Case {
  const path = rng.pick(['', '/latest', '/v1']) + rng.pick(['/tools/extract_text', '/tools/extract_json']);
  const { data, why } = damagedPdf(rng);
  const pages = rng.weighted<string | undefined>([[4, undefined], [2, String(rng.int(1, 3))], [1, rng.pick(['0', '-1', '100001', '1.5', 'x', '', '99999'])]]);
  const query = rng.bool(0.5) && pages !== undefined ? `?pages=${pct(pages)}` : '';
  const filename = rng.weighted<string>([[6, 'paper.pdf'], [1, rng.pick(['', '../../etc/passwd', 'a'.repeat(2000), 'x"y.pdf', 'ü.pdf', 'x\r\nContent-Type: text/html'])]]);
  const base = { target: 'pdf:upload', follow: true };
  return rng.weighted<() => Case>([
    [8, () => {
      const parts = [{ name: 'pdf_file', filename, data }] as { name: string; filename?: string; data: Buffer | string }[];
      if (!query && pages !== undefined) parts.unshift({ name: 'pages', data: pages });
      const [headers, body] = multipart(parts);
      return { ...base, label: `multipart: ${why}`, req: { method: 'POST', path: path + query, headers, body } };
    }],
    [1, () => {
      const [headers, body] = multipart([{ name: rng.pick(['file', 'pdf', 'PDF_FILE', '']), filename, data }]);
      return { ...base, label: 'multipart: wrong field name', req: { method: 'POST', path, headers, body } };
    }],
    [1, () => {
      const [headers, body] = multipart([{ name: 'pdf_file', filename, data }, { name: 'pdf_file', filename: 'second.pdf', data }]);
      return { ...base, label: 'multipart: two files', req: { method: 'POST', path, headers, body } };
    }],
    [1, () => {
      const [headers, body] = multipart([{ name: 'pdf_file', data: data.toString('latin1') }]);
      return { ...base, label: 'multipart: file sent as a field', req: { method: 'POST', path, headers, body } };
    }],
    [1, () => {
      const [headers, body] = multipart([{ name: 'pdf_file', filename, data }], 'fuzzb', { truncate: rng.int(10, 300), noClose: rng.bool() });
      return { ...base, label: 'multipart: truncated body', req: { method: 'POST', path, headers, body } };
    }],
    [1, () => {
      const [headers, body] = multipart(Array.from({ length: rng.pick([21, 200]) }, (_, i) => ({ name: `f${i}`, data: 'x' })));
      return { ...base, label: 'multipart: too many fields', req: { method: 'POST', path, headers, body } };
    }],
    [1, () => {
      const [headers, body] = multipart([{ name: 'pages', data: 'x'.repeat(70 * 1024) }, { name: 'pdf_file', filename, data }]);
      return { ...base, label: 'multipart: field over 64 KB', req: { method: 'POST', path, headers, body } };
    }],
    [1, () => ({ ...base, label: 'multipart: no boundary', req: { method: 'POST', path, headers: { 'content-type': rng.pick(['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=x']) }, body: data } })],
    [2, () => ({ ...base, label: `JSON: ${why}`, req: { method: 'POST', path: path + query, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pdf_base64: rng.bool(0.8) ? data.toString('base64') : rng.pick(['', '!!!', '====', 'JVBERi0', hostileString(rng)]), ...(rng.bool(0.3) ? { filename } : {}), ...(rng.bool(0.3) ? { pages: rng.pick([1, 0, -1, 1e9, '2', null, {}]) } : {}) }) } })],
    [1, () => ({ ...base, label: 'JSON: hostile', req: { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(hostileJson(rng)) } })],
    [1, () => ({ ...base, label: 'raw PDF body', req: { method: 'POST', path, headers: { 'content-type': rng.pick(['application/pdf', 'application/octet-stream', 'text/plain']) }, body: data } })],
  ])();
}

/**
 * The three cases reported against issue 15, and the two connections reported closed without an
 * answer in issue 3 (each followed an over-long URL on the same keep-alive connection, whose 431
 * did not say that the server closed it; the fuzzer's own keep-alive agent reuses sockets LIFO,
 * so the case after a refused one meets the same connection).
 */
export function knownCase(rng: Rng, ctx: Context): Case {
  return rng.weighted<() => Case>([
    [3, () => ({ target: 'known', label: 'blank structure to the checker', req: { method: 'GET', path: `${rng.pick(['', '/latest', '/v1'])}/chem/errors?smiles=${rng.pick(['%20%20', '%20', '%09', '%0A', '%20%0D%0A', '%20%20&fix=true', '%C2%A0'])}` } })],
    [3, () => ({ target: 'known', label: 'many-% like pattern', req: { method: 'POST', path: `/api/${rng.pick(['molecules', 'organisms', 'citations', 'collections'])}/search`, headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.tokens.admin}` }, body: JSON.stringify({ search: { filters: [{ field: rng.pick(['name', 'id', 'title', 'doi', 'iri', 'rank', 'identifier', 'canonical_smiles', 'cas', 'properties.alogp', 'active']), operator: 'like', value: rng.bool() ? '%'.repeat(rng.pick([20, 200, 2000])) : likePattern(rng) }] } }) } })],
    [1, () => {
      const atoms = rng.pick([1000, 1000, 1200, 2000, 5000, 398]);
      const polyene = 'C=C'.repeat(atoms / 2);
      return { target: 'known', label: `polyene of ${atoms} atoms to /convert/smiles, 32 at once`, burst: 32, req: { method: 'GET', path: `/convert/smiles?input_text=${polyene}${rng.bool(0.3) ? `&representation=${rng.pick(['smiles', 'auto'])}` : ''}` } };
    }],
    [1, () => ({ target: 'known', label: 'polyene under the limit to other operations', req: { method: 'GET', path: `${rng.pick(['/convert/canonicalsmiles', '/chem/descriptors', '/chem/collection/pre-processing', '/depict/2D', '/convert/inchi', '/chem/errors', '/convert/selfies', '/tools/sugars-info'])}?smiles=${'C=C'.repeat(rng.pick([150, 199, 200]))}` } })],
    [2, () => {
      const rings = rng.pick([50, 1000, 4000, 8100, 8200, 10_000, 30_000]);
      return { target: 'known', label: `${rings} repeated C1 rings to descriptors/multiple${rings * 2 > 16_300 ? ' (URL over the header limit)' : ''}`, burst: rng.pick([1, 1, 4]), req: { method: 'GET', path: `${rng.pick(['/latest', '', '/v1'])}/chem/descriptors/multiple?smiles=${'C1'.repeat(rings)}${rng.bool() ? ',CCO' : ''}` } };
    }],
    [2, () => {
      const token = rng.pick([ctx.tokens.admin, ctx.tokens.reader, undefined]);
      return { target: 'known', label: `$where filter field${token ? '' : ' (no token)'}`, req: { method: 'POST', path: `/api/${rng.pick(['citations', 'citations', 'molecules', 'organisms'])}/search`, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ search: { filters: [{ field: '$where', value: rng.pick(['1', 'true', 'this.id > 0', 'sleep(1000)']) }] } }) } };
    }],
    [1, () => ({ target: 'known', label: 'corpus SMILES sanity', req: { method: 'GET', path: `/convert/canonicalsmiles?smiles=${pct(validSmiles(rng))}` } })],
  ])();
}
