/**
 * A scripted assistant session over Streamable HTTP with a reader token, on the demo catalog, as
 * docs/mcp.md (Example session) shows it: a name → its structure (generate_smiles) → the catalog
 * molecule (search_coconut by structure) → its record (get_molecule) → its organisms (from the
 * record), each listing it (list_molecules by organism) → a drawing (generate_2d_depiction) whose
 * PNG header (IHDR) has the requested width and height. Each JSON answer is read from its
 * structuredContent, the way a current client reads it, and agrees with the text older clients read.
 */
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { importDemo } from '../../api/catalog/import/demo.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { build } from '../helpers/app.ts';
import { fakeDerive } from '../catalog/helper.ts';
import { PNG_MAGIC } from './png-decode.ts';

type Rec = Record<string, unknown>;
type Res = { content: { type: string; text?: string; data?: string; mimeType?: string }[]; isError?: boolean; structuredContent?: Rec };

const { app, services } = (await build(t, 'inline', { WORKERS: '2' }))!;
const store = services.store;
await importDemo(store, { derive: fakeDerive });
await services.searchIndex.start();
const READER = await issueToken(store, (await ensureUser(store, 'session@example.org', 'reader')).id);
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const client = new Client({ name: 'natprod-session-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${READER}` } } }));
t.teardown(() => client.close());

/** A tool's result, its structured content checked against its text. */
async function call(name: string, args: Rec): Promise<Res> {
  const res = (await client.callTool({ name, arguments: args })) as Res;
  t.notOk(res.isError, `${name}: ${res.isError ? res.content[0]?.text?.slice(0, 300) : 'answered'}`);
  if (res.structuredContent) {
    // Registry tools wrap their answer as {result}; catalog tools give the object itself.
    const parsed = JSON.parse(res.content[0].text!) as unknown;
    t.ok(isDeepStrictEqual(res.structuredContent, parsed) || isDeepStrictEqual(res.structuredContent, { result: parsed }), `${name}: structuredContent agrees with the text`);
  }
  return res;
}

/** Width and height from a PNG's IHDR chunk (PNG 1.2 §11.2.2: the first chunk, at byte 8). */
function ihdrSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(PNG_MAGIC)) throw new Error('not a PNG');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('no IHDR first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

t.test('a name → its structure → the catalog record → its organisms → a drawing of the requested size', async (t) => {
  const all = await store.find('molecules', {}, { fields: ['identifier', 'name', 'organism_ids'] });
  // A name the catalog holds (resolved by OPSIN when it reads it, else by the catalog's names).
  const named = all.find((m) => typeof m.name === 'string' && /^[A-Z]?[a-z]{4,}$/.test(m.name) && (m.organism_ids as number[] | undefined)?.length)!;
  const name = named.name as string;

  const smiles = (await call('generate_smiles', { input_text: name, representation: 'iupac' })).structuredContent!.result as string;
  t.ok(typeof smiles === 'string' && smiles.length > 0, `${name} → ${smiles}`);

  // The structure → the catalog's molecule. By similarity 1: this catalog's InChIKeys are the fake
  // derivation's, so an exact search (by InChIKey) would not meet the real one; fingerprints come from the SMILES.
  const hits = (await call('search_coconut', { type: 'similarity', query: smiles, threshold: 1 })).structuredContent as { data: { data: Rec[] } };
  const ids = hits.data.data.map((x) => x.identifier);
  t.ok(ids.includes(named.identifier), `the structure finds ${named.identifier as string} (${ids.join(', ')})`);

  const found = (await call('get_molecule', { query: named.identifier as string })).structuredContent!;
  t.equal(found.matched_by, 'identifier');
  const record = found.molecule as Rec;
  t.equal(record.name, name, 'the record of that name');
  t.match(found.request, { method: 'POST', path: '/api/molecules/search' }, 'with the REST request it ran');

  const organisms = record.organisms as Rec[];
  t.ok(organisms.length > 0, `reported from ${organisms.map((o) => o.name).join(', ')}`);
  for (const o of organisms.slice(0, 3)) {
    t.ok(o.name && 'family' in o && 'ncbi_id' in o, `${o.name as string}: lineage and taxonomy ids`);
    const listed: unknown[] = [];
    for (let page = 1; page < 100; page++) {
      const p = (await call('list_molecules', { organism: o.id as number, page, limit: 50 })).structuredContent!;
      listed.push(...(p.data as Rec[]).map((x) => x.identifier));
      if (page >= (p.last_page as number)) break;
    }
    t.ok(listed.includes(named.identifier), `${o.name as string} lists it`);
  }

  const [width, height] = [420, 300];
  const drawing = await call('generate_2d_depiction', { smiles: record.canonical_smiles, width, height });
  t.equal(drawing.structuredContent, undefined, 'a drawing is no JSON: no structured content');
  const image = drawing.content.find((c) => c.type === 'image');
  t.match(image, { type: 'image', mimeType: 'image/png', data: String }, 'an image content');
  t.same(ihdrSize(Buffer.from(image!.data!, 'base64')), { width, height }, 'the IHDR width and height are the requested size');
  t.match(drawing.content.find((c) => c.type === 'text')?.text, new RegExp(`<svg[\\s\\S]*width='${width}px' height='${height}px'`), 'then the SVG');

  const png = await call('generate_2d_depiction', { smiles: record.canonical_smiles, width, height, format: 'png', scale: 2 });
  t.same(ihdrSize(Buffer.from(png.content[0].data!, 'base64')), { width: width * 2, height: height * 2 }, 'format=png, scale 2: twice the size');
});
