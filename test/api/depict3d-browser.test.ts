/**
 * The 3D viewer page (GET /depict/3D) in a real browser: Debian's headless Chromium, driven by
 * playwright-core, against the app listening on a free port. For each molecule the page must load
 * without console errors, page errors or failed requests, ask nothing of any host but ours, and
 * paint the molecule: the viewer canvas, captured as the user sees it, holds non-background pixels,
 * and the Jmol colours 3Dmol.js gives oxygen (red) and nitrogen (blue) appear exactly when the
 * molecule has those elements. A tap skip when no Chromium is found (CHROMIUM_PATH, else `chromium`
 * on PATH; .ci/run installs Debian's).
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build } from '../helpers/app.ts';
import { chromiumPath, skipAll } from '../helpers/skip.ts';

const CHROMIUM = chromiumPath();
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Molecule {
  name: string;
  smiles: string;
  oxygen: boolean;
  nitrogen: boolean;
}

const MOLECULES: Molecule[] = [
  { name: 'ethanol (small)', smiles: 'CCO', oxygen: true, nitrogen: false },
  { name: '(S)-nicotine (natural product, one stereocentre)', smiles: 'CN1CCC[C@H]1c1cccnc1', oxygen: false, nitrogen: true },
  { name: 'choline (cation)', smiles: 'C[N+](C)(C)CCO', oxygen: true, nitrogen: true },
];

interface Traffic {
  urls: string[];
  consoleProblems: string[];
  pageErrors: string[];
  failed: string[];
}

/** Everything the page says and asks for, recorded from before navigation. */
function watch(page: Page): Traffic {
  const traffic: Traffic = { urls: [], consoleProblems: [], pageErrors: [], failed: [] };
  page.on('request', (r) => void traffic.urls.push(r.url()));
  page.on('requestfailed', (r) => void traffic.failed.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => void (r.status() >= 400 && traffic.failed.push(`${r.url()}: HTTP ${r.status()}`)));
  page.on('pageerror', (e) => void traffic.pageErrors.push(e.message));
  page.on('console', (m) => {
    // The software GL driver reports its own performance notes (readback stalls) as warnings.
    const driverNote = m.type() === 'warning' && m.text().includes('GL Driver Message');
    if ((m.type() === 'error' || m.type() === 'warning') && !driverNote) traffic.consoleProblems.push(`${m.type()}: ${m.text()}`);
    if (/unknown format/i.test(m.text())) traffic.consoleProblems.push(`${m.type()}: ${m.text()}`);
  });
  return traffic;
}

interface Pixels {
  width: number;
  height: number;
  painted: number;
  red: number;
  blue: number;
  corner: number[];
}

/** The few browser imaging APIs the pixel count uses. */
interface BrowserImaging {
  createImageBitmap(blob: Blob): Promise<{ width: number; height: number }>;
  OffscreenCanvas: new (width: number, height: number) => {
    getContext(kind: '2d'): {
      drawImage(image: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
    } | null;
  };
}

/**
 * Decodes a PNG in a blank page of the same browser (no PNG decoder in this project) and counts
 * pixels: painted = visibly not white; red and blue = hue of the oxygen and nitrogen sticks.
 */
async function countPixels(decoder: Page, png: Buffer): Promise<Pixels> {
  return decoder.evaluate(async (b64) => {
    const dom = globalThis as unknown as BrowserImaging; // the project compiles without the DOM library
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await dom.createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new dom.OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d')!;
    g.drawImage(bitmap, 0, 0);
    const px = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let painted = 0;
    let red = 0;
    let blue = 0;
    for (let i = 0; i < px.length; i += 4) {
      const [r, gr, b] = [px[i], px[i + 1], px[i + 2]];
      if (Math.min(r, gr, b) < 240) painted++;
      if (r > 120 && r > 2 * gr && r > 2 * b) red++;
      if (b > 120 && b > 1.5 * r && b > 1.3 * gr) blue++;
    }
    return { width: bitmap.width, height: bitmap.height, painted, red, blue, corner: [px[0], px[1], px[2]] };
  }, png.toString('base64'));
}

if (!CHROMIUM) {
  skipAll(t, 'no Chromium (CHROMIUM_PATH, or chromium on PATH; apt-get install chromium): the 3D viewer page is not checked in a browser');
} else {
  t.setTimeout(120_000);
  t.test('3D viewer page in headless Chromium', async (t) => {
    const built = (await build(t, 'inline'))!;
    const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = new URL(base).origin;
    const profile = await mkdtemp(join(tmpdir(), 'natprod-chromium-'));
    // The first task of a worker thread loads RDKit; do that while the browser starts.
    const [warm, context] = await Promise.all([
      built.app.inject({ url: '/depict/3D?smiles=C' }),
      chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 480, height: 360 } }),
    ]) as [{ statusCode: number }, BrowserContext];
    t.teardown(async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    });
    t.equal(warm.statusCode, 200, 'warm-up page');
    const decoder = await context.newPage();

    for (const m of MOLECULES) {
      const page = await context.newPage();
      const traffic = watch(page);
      const url = `${base}/depict/3D?smiles=${encodeURIComponent(m.smiles)}`;
      const response = await page.goto(url, { waitUntil: 'load' });
      t.equal(response?.status(), 200, `${m.name}: page answers 200`);
      t.equal(await page.evaluate(() => typeof (globalThis as { $3Dmol?: unknown }).$3Dmol), 'object', `${m.name}: viewer script ran`);
      const canvas = page.locator('#viewer canvas');
      t.equal(await canvas.count(), 1, `${m.name}: one viewer canvas`);
      const px = await countPixels(decoder, await canvas.screenshot());
      const total = px.width * px.height;
      t.ok(px.width >= 400 && px.height >= 300, `${m.name}: canvas fills the window (${px.width}x${px.height})`);
      t.same(px.corner, [255, 255, 255], `${m.name}: white background`);
      t.ok(px.painted / total > 0.01, `${m.name}: molecule drawn (${((100 * px.painted) / total).toFixed(1)}% of pixels painted)`);
      t.equal(px.red > 50, m.oxygen, `${m.name}: oxygen red ${m.oxygen ? 'shown' : 'absent'} (${px.red} px)`);
      t.equal(px.blue > 50, m.nitrogen, `${m.name}: nitrogen blue ${m.nitrogen ? 'shown' : 'absent'} (${px.blue} px)`);

      t.same(traffic.consoleProblems, [], `${m.name}: no console errors or warnings`);
      t.same(traffic.pageErrors, [], `${m.name}: no page errors`);
      t.same(traffic.failed, [], `${m.name}: no failed requests`);
      const foreign = traffic.urls.filter((u) => new URL(u).protocol !== 'data:' && new URL(u).origin !== origin);
      t.same(foreign, [], `${m.name}: no request to another host`);
      t.ok(traffic.urls.includes(`${origin}/static/3Dmol-min.js`), `${m.name}: viewer script fetched from us`);
      await page.close();
    }
  });
}
