/**
 * The Content-Security-Policy in a real browser (Debian's headless Chromium via playwright-core):
 * Swagger UI at /docs and Bull Board at /admin/queues (with Redis) render without a console error
 * (Chromium reports every CSP refusal there), a page error, a failed request or a request to
 * another host; and, as a control, the 3D viewer page with its script hash taken out of the
 * policy is refused, so a violation would show. test/api/depict3d-browser.test.ts checks the
 * viewer under its real policy. A tap skip when no Chromium is found (CHROMIUM_PATH, else
 * `chromium` on PATH).
 */
import type { Teardown as Tap } from '../helpers/task.ts';
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { build, type Mode } from '../helpers/app.ts';
import { chromiumPath, NO_REDIS, skipAll } from '../helpers/skip.ts';

const CHROMIUM = chromiumPath();
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Traffic {
  urls: string[];
  problems: string[];
}

function watch(page: Page): Traffic {
  const traffic: Traffic = { urls: [], problems: [] };
  page.on('request', (r) => void traffic.urls.push(r.url()));
  page.on('requestfailed', (r) => void traffic.problems.push(`failed ${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => void (r.status() >= 400 && traffic.problems.push(`HTTP ${r.status()} ${r.url()}`)));
  page.on('pageerror', (e) => void traffic.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    const driverNote = m.type() === 'warning' && m.text().includes('GL Driver Message');
    if ((m.type() === 'error' || m.type() === 'warning') && !driverNote) traffic.problems.push(`${m.type()}: ${m.text()}`);
  });
  return traffic;
}

const foreign = (traffic: Traffic, origin: string) =>
  traffic.urls.filter((u) => !['data:', 'blob:'].includes(new URL(u).protocol) && new URL(u).origin !== origin);

async function serve(t: Tap, mode: Mode) {
  const built = await build(t, mode);
  if (!built) return undefined;
  const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const profile = await mkdtemp(join(tmpdir(), 'natprod-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1024, height: 768 } });
  t.teardown(async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });
  return { built, base, origin: new URL(base).origin, context };
}

if (!CHROMIUM) {
  skipAll(t, 'no Chromium (CHROMIUM_PATH, or chromium on PATH; apt-get install chromium): the CSP is not checked in a browser');
} else {
  t.setTimeout(180_000);

  t.test('Swagger UI and the viewer control (inline mode)', async (t) => {
    const { base, origin, context } = (await serve(t, 'inline'))!;

    const page = await context.newPage();
    const traffic = watch(page);
    const res = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    t.equal(res?.status(), 200, '/docs answers');
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    const ops = await page.locator('.opblock').count();
    t.ok(ops >= 34, `Swagger UI renders the operations (${ops} blocks)`);
    t.ok(await page.locator('.info .title').first().isVisible(), 'and the title');
    // Expanding an operation renders its parameters (more of the UI, more of its styles).
    await page.locator('.opblock-summary').first().click();
    await page.locator('.parameters-container, .opblock-body').first().waitFor({ timeout: 10_000 });
    t.same(traffic.problems, [], 'no console errors (no CSP refusal), page errors or failed requests');
    t.same(foreign(traffic, origin), [], 'no request to another host');
    await page.close();

    // The descriptor table (format=html) styles itself with a <style> block and a style attribute.
    const table = await context.newPage();
    const tableTraffic = watch(table);
    await table.goto(`${base}/chem/descriptors?smiles=CCO&format=html`, { waitUntil: 'load' });
    t.ok((await table.locator('table.dataframe tr').count()) > 10, 'descriptor table rendered');
    // (a string: the project compiles without the DOM library)
    const align = await table.evaluate("getComputedStyle(document.querySelector('thead tr')).textAlign");
    t.equal(align, 'right', 'its style attribute applies');
    // (a bare table has no icon link, so the browser asks for /favicon.ico: not our concern here)
    t.same(tableTraffic.problems.filter((p) => /Security Policy/i.test(p)), [], 'descriptor table: no CSP refusal');
    await table.close();

    // Control: the same viewer page with the hash of its inline script taken out of the policy.
    const control = await context.newPage();
    const seen = watch(control);
    await control.route('**/depict/3D*', async (route) => {
      const response = await route.fetch();
      const csp = response.headers()['content-security-policy']!.replace(/'sha256-[^']+'/g, '');
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
    });
    await control.goto(`${base}/depict/3D?smiles=CCO`, { waitUntil: 'load' });
    t.ok(seen.problems.some((p) => /Content Security Policy/i.test(p)), 'without its hash the inline script is refused, and the refusal is seen');
    t.equal(await control.locator('#viewer canvas').count(), 0, 'so nothing is drawn');
    await control.close();
  });

  t.test('Bull Board (bullmq mode)', async (t) => {
    const served = await serve(t, 'bullmq');
    if (!served) return skipAll(t, NO_REDIS);
    const { built, base, origin, context } = served;
    const user = await ensureUser(built.services.store, 'root@lab.org', 'admin');
    const token = await issueToken(built.services.store, user.id as number);
    const page = await context.newPage();
    const traffic = watch(page);
    const res = await page.goto(`${base}/admin/queues?token=${encodeURIComponent(token)}`, { waitUntil: 'load' });
    t.equal(res?.status(), 200, 'the page, after the redirect that sets the cookie');
    t.equal(new URL(page.url()).search, '', 'the token is gone from the address');
    await page.getByText('chem-long').first().waitFor({ timeout: 30_000 });
    for (const q of ['chem-quick', 'chem-long', 'chem-batch']) t.ok(await page.getByText(q).first().isVisible(), `queue ${q} listed`);
    t.same(traffic.problems, [], 'no console errors (no CSP refusal), page errors or failed requests');
    t.same(foreign(traffic, origin), [], 'no request to another host (no Google fonts)');
  });
}
