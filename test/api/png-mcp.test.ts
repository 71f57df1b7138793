/**
 * Pictures over MCP (Streamable HTTP, the SDK's client): generate_2d_depiction answers an image
 * content (a PNG of the drawing's size, rendered on a chemistry thread) followed by the SVG as
 * text; with `format=png` the image alone, of width and height times `scale`; the image is the
 * PNG REST answers for the same drawing; a size over the PNG limit is an isError 422.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from '../helpers/app.ts';
import { MAX_PNG_SIDE } from '../../shared/png-limits.ts';
import { countPixels, decodePng } from './png-decode.ts';

const { app } = (await build(t, 'inline'))!;
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const client = new Client({ name: 'natprod-png-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
t.teardown(() => client.close());

type Content = { type: string; text?: string; data?: string; mimeType?: string };
const call = async (args: Record<string, unknown>) =>
  (await client.callTool({ name: 'generate_2d_depiction', arguments: args })) as { content: Content[]; isError?: boolean };

t.test('an SVG answer is a PNG image content, then the SVG', async (t) => {
  const res = await call({ smiles: 'CCO', width: 320, height: 240 });
  t.notOk(res.isError, res.content[0]?.text ?? '');
  t.equal(res.content.length, 2);
  const [image, svg] = res.content;
  t.match(image, { type: 'image', mimeType: 'image/png', data: String });
  const img = decodePng(Buffer.from(image.data!, 'base64'));
  t.match(img, { width: 320, height: 240 }, 'the PNG has the requested size');
  t.ok(countPixels(img, (r, g, b, a) => a > 128 && r < 100 && g < 100 && b < 100) > 50, 'not blank');
  t.equal(svg.type, 'text');
  t.match(svg.text, /^<\?xml[\s\S]*<svg[\s\S]*width='320px' height='240px'[\s\S]*<\/svg>\s*$/, 'the SVG as text');
  const rest = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', width: '320', height: '240', format: 'png' } });
  t.same(Buffer.from(image.data!, 'base64'), rest.rawPayload, 'the PNG REST answers with format=png');
  const restSvg = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', width: '320', height: '240' } });
  t.equal(svg.text, restSvg.body, 'the SVG REST answers');
});

t.test('format=png is the image alone, scaled', async (t) => {
  const res = await call({ smiles: 'c1ccccc1', width: 100, height: 80, format: 'png', scale: 3 });
  t.notOk(res.isError, res.content[0]?.text ?? '');
  t.equal(res.content.length, 1);
  t.match(res.content[0], { type: 'image', mimeType: 'image/png' });
  t.match(decodePng(Buffer.from(res.content[0].data!, 'base64')), { width: 300, height: 240 });
});

t.test('an SVG larger than the PNG limit still comes with a PNG, shrunk to the limit', async (t) => {
  const res = await call({ smiles: 'CCO', width: MAX_PNG_SIDE * 2, height: MAX_PNG_SIDE });
  t.notOk(res.isError, res.content[0]?.text ?? '');
  t.match(decodePng(Buffer.from(res.content[0].data!, 'base64')), { width: MAX_PNG_SIDE, height: MAX_PNG_SIDE / 2 });
  t.match(res.content[1].text, new RegExp(`width='${MAX_PNG_SIDE * 2}px'`));
});

t.test('a PNG over the limit is an isError 422', async (t) => {
  const res = await call({ smiles: 'CCO', format: 'png', width: MAX_PNG_SIDE + 1 });
  t.equal(res.isError, true);
  t.match(res.content[0].text, /Status code: 422.*width/);
});
