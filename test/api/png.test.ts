/**
 * generate_2d_depiction with `format=png` over REST, in both runner modes (the PNG travels from
 * the thread, and through BullMQ's JSON job records, base64-encoded): a real PNG (`image/png`,
 * no charset, PNG signature, CRCs valid) of the requested size times `scale`, not blank, with the
 * oxygen's red label drawn (RDKit draws labels as paths, so no font is needed); a polled job's
 * result carries the same PNG; sizes over the PNG limit and bad scales are FastAPI 422s; the
 * OpenAPI document lists both media types.
 */
import t from 'tap';
import { build, MODES } from '../helpers/app.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';
import { MAX_PNG_SIDE } from '../../shared/png-limits.ts';
import { countPixels, decodePng, PNG_MAGIC } from './png-decode.ts';

const dark = (r: number, g: number, b: number, a: number) => a > 128 && r < 100 && g < 100 && b < 100;
const red = (r: number, g: number, b: number, a: number) => a > 128 && r > 180 && g < 90 && b < 90;

for (const mode of MODES) {
  t.test(`${mode} mode`, async (t) => {
    const built = await build(t, mode);
    if (!built) return skipAll(t, NO_REDIS);
    const { app } = built;

    t.test('format=png is a PNG of the requested size, with the drawing on it', async (t) => {
      const res = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', format: 'png', width: '300', height: '200' } });
      t.equal(res.statusCode, 200, res.statusCode === 200 ? 'answers 200' : res.body.slice(0, 200));
      t.equal(res.headers['content-type'], 'image/png');
      const png = res.rawPayload;
      t.same(png.subarray(0, 8), PNG_MAGIC, 'PNG signature');
      const img = decodePng(png);
      t.match(img, { width: 300, height: 200 }, 'width and height as requested');
      t.ok(countPixels(img, (r, g, b, a) => a === 255 && r > 250 && g > 250 && b > 250) > img.width * img.height / 2, 'mostly white background');
      t.ok(countPixels(img, dark) > 50, 'dark pixels: the bonds are drawn');
      t.ok(countPixels(img, red) > 10, 'red pixels: the oxygen label (a path in RDKit\'s SVG) is drawn');

      const latest = await app.inject({ url: '/latest/depict/2D', query: { smiles: 'CCO', format: 'png', width: '300', height: '200' } });
      t.same(latest.rawPayload, png, '/latest answers the same PNG');
    });

    t.test('scale multiplies the pixels', async (t) => {
      const res = await app.inject({ url: '/depict/2D', query: { smiles: 'c1ccccc1O', format: 'png', width: '200', height: '150', scale: '2.5' } });
      t.equal(res.statusCode, 200, res.statusCode === 200 ? 'answers 200' : res.body.slice(0, 200));
      t.match(decodePng(res.rawPayload), { width: 500, height: 375 });
      const svg = await app.inject({ url: '/depict/2D', query: { smiles: 'c1ccccc1O', width: '200', height: '150', scale: '2.5' } });
      t.match(svg.headers['content-type'], /^image\/svg\+xml/, 'the default is still SVG');
      t.match(svg.body, /width='200px' height='150px'/, 'scale does not change an SVG');
    });

    t.test('a polled PNG job carries the PNG base64-encoded', async (t) => {
      const sub = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', format: 'png', width: '120', height: '90', async: 'true' } });
      t.equal(sub.statusCode, 202);
      let body: Record<string, any> = {};
      for (let i = 0; i < 300; i++) {
        body = (await app.inject({ url: new URL(sub.json().status_url).pathname })).json();
        if (body.status === 'succeeded' || body.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      t.equal(body.status, 'succeeded', JSON.stringify(body.error));
      t.equal(body.result?.mediaType, 'image/png');
      const direct = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', format: 'png', width: '120', height: '90' } });
      t.same(Buffer.from(body.result.body, 'base64'), direct.rawPayload, 'the same bytes as the direct answer');
    });

    t.test('sizes and scales out of bounds are a 422 list', async (t) => {
      const cases: [Record<string, string>, string][] = [
        [{ width: String(MAX_PNG_SIDE + 1) }, 'width'],
        [{ height: String(MAX_PNG_SIDE + 1) }, 'height'],
        [{ width: '1024', scale: '3' }, 'scale'],
        [{ width: '5000' }, 'width'],
        [{ scale: '0.1' }, 'scale'],
        [{ scale: '5' }, 'scale'],
        [{ scale: 'big' }, 'scale'],
        [{ width: '8' }, 'width'],
      ];
      for (const [extra, field] of cases) {
        const res = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', format: 'png', ...extra } });
        t.equal(res.statusCode, 422, JSON.stringify(extra));
        t.match(res.json().detail?.[0], { loc: ['query', field], msg: String }, `${JSON.stringify(extra)}: names ${field}`);
      }
      const bigSvg = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', width: String(MAX_PNG_SIDE + 1) } });
      t.equal(bigSvg.statusCode, 200, 'an SVG may be larger than the PNG limit');
      const fmt = await app.inject({ url: '/depict/2D', query: { smiles: 'CCO', format: 'gif' } });
      t.match(fmt.json().detail?.[0], { type: 'enum', loc: ['query', 'format'], msg: "Input should be 'svg' or 'png'" });
    });

    t.test('OpenAPI lists both media types', async (t) => {
      const doc = (await app.inject({ url: '/openapi.json' })).json();
      const ok = doc.paths['/depict/2D'].get.responses['200'];
      t.same(Object.keys(ok.content).sort(), ['image/png', 'image/svg+xml']);
      t.match(ok.content['image/png'].schema, { type: 'string', format: 'binary' });
      t.match(ok.description, /image\/png when `format=png`/);
    });
  });
}
