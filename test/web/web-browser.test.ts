/**
 * The web interface in a real browser (docs/web.md): Debian's headless Chromium driven by
 * playwright-core against the app on a free port, with a slice of the LOTUS demo set. A researcher searches
 * by name (by keyboard), searches a SMILES pasted into the structure editor (Ketcher; OpenChemLib's
 * when Ketcher's files fail), opens a compound page, runs a structure-generation job to its
 * result; a curator signs in and approves a report. A molecule named `<script>` shows as text.
 * No page error, no CSP violation, no request to another
 * host; axe-core finds no serious or critical violation; at 390 px no page scrolls sideways.
 * Screenshots of each page at 1280 and 390 px go to test/web/artifacts/ (gitignored). A tap skip
 * when no Chromium is found (CHROMIUM_PATH, else `chromium` on PATH).
 */
import t from 'tap';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from '../helpers/app.ts';
import { importFile } from '../../api/catalog/import/run.ts';
import { chromiumPath, skipAll } from '../helpers/skip.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';

const CHROMIUM = chromiumPath();
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = join(import.meta.dirname, 'artifacts');
const QUERCETIN = 'O=c1c(O)c(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12';
const EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/**
 * A slice of the LOTUS demo sample (api/catalog/data): the first 40 rows and every row of
 * quercetin, as a TSV file the importer reads as LOTUS (the whole demo set takes a minute or more
 * to derive on a busy 2-core machine).
 */
async function seedFile(dir: string): Promise<string> {
  const text = gunzipSync(readFileSync(new URL('../../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url))).toString('utf8');
  const [head, ...rows] = text.split('\n').filter((l) => l.trim() !== '');
  const keep = rows.filter((r, i) => i < 40 || r.includes('REFJWTPEDVJJIY-UHFFFAOYSA-N'));
  const path = join(dir, 'lotus-slice.tsv');
  await writeFile(path, `${[head, ...keep].join('\n')}\n`);
  return path;
}

/** axe-core's source, when the package is installed (a devDependency). */
async function axeSource(): Promise<string | undefined> {
  try {
    return await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  } catch {
    return undefined;
  }
}

if (!CHROMIUM) {
  skipAll(t, 'no Chromium (CHROMIUM_PATH, or chromium on PATH; apt-get install chromium): the web interface is not checked in a browser');
} else {
  t.setTimeout(180_000);
  t.test('web interface in headless Chromium', async (t) => {
    const t0 = performance.now();
    const built = (await build(t, 'inline', { WORKERS: '2' }))!;
    const { app, services } = built;
    const store = services.store;
    const profile = await mkdtemp(join(tmpdir(), 'natprod-chromium-'));
    await mkdir(join(profile, 'seed'));
    const [, context] = await Promise.all([
      (async () => {
        await importFile(store, await seedFile(join(profile, 'seed')), { derive: (i) => services.derive(i) });
        await services.searchIndex.start();
      })(),
      chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } }),
    ]);
    t.teardown(async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = new URL(base).origin;
    t.comment(`app, LOTUS slice and browser ready in ${Math.round(performance.now() - t0)} ms`);

    // A molecule whose name is markup; a curator with a password; a reader's report to decide.
    const evil = await store.insert('molecules', { name: EVIL, identifier: 'CNP9999999', canonical_smiles: 'CCCCCCCCCCO', standard_inchi_key: 'GHVNFZFCNZKVNT-UHFFFAOYSA-N', status: 'APPROVED', active: true, annotation_level: 0, has_stereo: false, is_parent: false, organism_ids: [], collection_ids: [], citation_ids: [] });
    t.ok(evil.id);
    await ensureUser(store, 'curator@example.org', 'curator', 'a curator password');
    const reader = await issueToken(store, (await ensureUser(store, 'reader@example.org', 'reader')).id);
    const created = await app.inject({ method: 'POST', url: '/api/reports/mutate', headers: { authorization: `Bearer ${reader}` }, payload: { mutate: [{ operation: 'create', attributes: { title: 'Ibuprofen is not a natural product <b>really</b>', canonical_smiles: 'CC(C)Cc1ccc(cc1)C(C)C(O)=O', name: 'ibuprofen', evidence: 'a test' } }] } });
    t.equal(created.statusCode, 200, 'a reader submits a report');
    const reportId = created.json().created[0] as number;

    const page = await context.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('pageerror', (e) => void problems.push(`page error: ${e.message}`));
    // A failed request is logged by the browser as a console error too: recorded with its URL instead.
    page.on('console', (m) => void (((m.type() === 'error' && !/^Failed to load resource/.test(m.text())) || /Content Security Policy/i.test(m.text())) && problems.push(`${m.type()}: ${m.text()}`)));
    page.on('response', (r) => void (r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`)));
    page.on('request', (r) => void (!r.url().startsWith(origin) && !r.url().startsWith('blob:') && !r.url().startsWith('data:') && foreign.push(r.url())));
    page.on('dialog', (d) => void (problems.push(`a dialog opened: ${d.message()}`), d.dismiss()));
    const ready = async () => page.waitForSelector('body[data-ready="true"]');
    await mkdir(ARTIFACTS, { recursive: true });
    /** The page as it is now, at 1280 and at 390 px wide. */
    const shots = async (name: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    };
    const axe = await axeSource();
    const audit = async (name: string) => {
      if (!axe) return;
      await page.evaluate(axe);
      const found = await page.evaluate(async () => {
        const r = await (globalThis as unknown as { axe: { run: (o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      });
      t.same(found, [], `${name}: no serious or critical axe-core violation`);
    };

    await t.test('search by name, by keyboard', async (t) => {
      await page.goto(`${origin}/search`);
      await ready();
      await page.keyboard.press('Tab');
      t.equal(await page.evaluate('document.activeElement && document.activeElement.textContent'), 'Skip to content', 'the first Tab reaches the skip link');
      await page.focus('textarea[name="q"]');
      await page.keyboard.type('quercetin');
      t.match(await page.textContent('#detected'), /name or text/, 'the box says what the query is taken for');
      await page.keyboard.press('Tab'); // the type menu
      await page.keyboard.press('Tab'); // Search
      await page.keyboard.press('Enter');
      await page.waitForSelector('#results .card');
      t.match(page.url(), /\/search\?q=quercetin$/, 'the URL holds the query');
      const names = await page.$$eval('#results .card .name', (els) => els.map((e) => e.textContent));
      t.ok(names.some((n) => /quercetin/i.test(n ?? '')), `quercetin among the results (${names.slice(0, 3).join(', ')})`);
      // Every depiction of the page painted.
      await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('#results img')].every((i: any) => i.complete && i.naturalWidth > 0));
      await page.reload();
      await page.waitForSelector('#results .card');
      t.equal(await page.inputValue('textarea[name="q"]'), 'quercetin', 'a reload shows the same search');
      await audit('search results');
    });

    await t.test('a SMILES pasted into the structure editor', async (t) => {
      await page.goto(`${origin}/search`);
      await ready();
      const t1 = performance.now();
      await page.click('#draw');
      await page.waitForSelector('[data-editor="ready"]', { timeout: 30_000 });
      t.equal(await page.getAttribute('.editor-host', 'data-editor-kind'), 'ketcher', 'Ketcher, not the fallback editor');
      t.comment(`editor ready ${Math.round(performance.now() - t1)} ms after the click`);
      // Closed and opened again: a new Ketcher in the same page.
      await page.click('.editor-host button:text-is("Close")');
      await page.click('#draw');
      await page.waitForSelector('[data-editor="ready"]');
      t.equal(await page.$$eval('.ketcher-editor', (els) => els.length), 1, 'reopened, one editor');
      await page.fill('#editor-smiles', QUERCETIN);
      await page.click('button:text-is("Load")');
      // Indigo (in Ketcher's worker) turned the SMILES into a drawing: quercetin's 7 O and 5 H labels.
      const labels = () => page.$$eval('.ketcher-editor svg text', (els) => els.map((e) => e.textContent).filter((x) => x === 'O' || x === 'H').sort().join(''));
      for (let i = 0; i < 100 && (await labels()) !== 'HHHHHOOOOOOO'; i++) await page.waitForTimeout(100);
      t.equal(await labels(), 'HHHHHOOOOOOO', 'the SMILES drawn by Ketcher');
      await shots('editor');
      await page.click('text=Substructure search');
      await page.waitForSelector('#results .card');
      t.match(page.url(), /type=substructure/, 'a substructure search');
      const first = await page.$eval('#results .card .name', (e) => e.textContent);
      t.match(first, /quercetin/i, 'the exact match first');
      t.ok(await page.$('#results .card .tag'), 'hits carry their similarity');
    });

    await t.test("OpenChemLib's editor when Ketcher cannot start", async (t) => {
      // Another tab whose requests for Ketcher's stylesheet fail (the first tab's listeners do not see it).
      const tab = await context.newPage();
      await tab.route(/\/static\/web\/ketcher-[^/]*\.css$/, (r) => r.abort());
      await tab.goto(`${origin}/search`);
      await tab.waitForSelector('body[data-ready="true"]');
      await tab.click('#draw');
      await tab.waitForSelector('[data-editor="ready"] canvas');
      t.equal(await tab.getAttribute('.editor-host', 'data-editor-kind'), 'openchemlib', 'the fallback editor');
      t.match(await tab.textContent('.editor-host .note'), /Ketcher could not start \(Ketcher's stylesheet did not load/, 'the page says why');
      await tab.fill('#editor-smiles', QUERCETIN);
      await tab.click('button:text-is("Exact search")');
      await tab.waitForSelector('#results .card');
      t.match(tab.url(), /type=exact/, 'it searches as Ketcher does');
      await tab.close();
    });

    await t.test('a compound page', async (t) => {
      await page.click('#results .card a');
      await page.waitForURL(/\/compounds\/CNP\d+/);
      await ready();
      await page.waitForSelector('section h2:text("Similar compounds") ~ ul, section h2:text("Similar compounds") ~ p:not(.hint)');
      t.match(await page.textContent('h1'), /quercetin/i);
      t.ok(await page.$('img[alt^="Structure of"]'), 'the 2D depiction');
      t.ok(await page.$('a[href^="/depict/3D?smiles="]'), 'a link to the 3D viewer');
      t.ok(await page.$('text=Download SDF'), 'downloads');
      const dl = page.waitForEvent('download');
      await page.click('text=Download SDF');
      const file = await (await dl).path();
      const sdf = await readFile(file!, 'utf8');
      t.match(sdf, /M {2}END[\s\S]*> <identifier>\nCNP\d+[\s\S]*\$\$\$\$/, 'the SDF holds the molblock, the identifier and its end');
      await audit('compound page');
    });

    await t.test('a molecule named <script> shows as text', async (t) => {
      await page.goto(`${origin}/search?q=CNP9999999`);
      await page.waitForSelector('#results .card');
      t.equal(await page.textContent('#results .card .name'), EVIL, 'the name, character for character');
      await page.goto(`${origin}/compounds/CNP9999999`);
      await ready();
      await page.waitForSelector('h1 small');
      t.match(await page.textContent('h1'), EVIL, 'the compound page shows it as text');
      t.equal(await page.$$eval('main script, main img[src="x"]', (e) => e.length), 0, 'no element made from it');
    });

    await t.test('a structure-generation job to its result', async (t) => {
      await page.goto(`${origin}/tools`);
      await ready();
      await page.click('a[href="/tools/generate_structures"]');
      await ready();
      await page.fill('[name="molecular_formula"]', 'C6H6');
      await page.click('text=Start the job');
      await page.waitForURL(/\/jobs\//);
      await page.waitForSelector('main[data-job-status="succeeded"]', { timeout: 60_000 });
      const smiles = await page.$$eval('#result .card code', (els) => els.map((e) => e.textContent).sort());
      t.same(smiles, ['C=C1C=CC=C1', 'c1ccccc1'], 'the two C6H6 structures, with their depictions');
      await shots('job');
    });

    await t.test('a curator approves a report', async (t) => {
      await page.goto(`${origin}/curator`);
      await ready();
      await page.fill('[name="email"]', 'curator@example.org');
      await page.fill('[name="password"]', 'a curator password');
      await page.click('button:text("Sign in")');
      await page.waitForSelector(`li[data-report="${reportId}"]`);
      t.equal(await page.evaluate('location.search + location.hash'), '', 'no token in the URL');
      t.match(await page.textContent(`li[data-report="${reportId}"] h3`), '<b>really</b>', 'the title as text');
      await audit('curator page');
      await page.click(`text=Approve #${reportId}`);
      await page.waitForSelector('text=No report is waiting.');
      const rep = (await store.findByIds('reports', [reportId]))[0]!;
      t.equal(rep.status, 'APPROVED', 'the report is approved');
    });

    await t.test('screenshots at 1280 and 390 px; nothing scrolls sideways at 390 px', async (t) => {
      const mol = (await store.findOne('molecules', { standard_inchi_key: 'REFJWTPEDVJJIY-UHFFFAOYSA-N' }))!;
      const pages: [string, string, string][] = [
        ['search', `/search?q=quercetin`, '#results .card'],
        ['compound', `/compounds/${mol.identifier}`, 'h1 small'],
        ['collections', '/collections', 'main h1'],
        ['dereplication', '/dereplication', 'main form'],
        ['tools', '/tools', 'main ul'],
        ['tool', '/tools/generate_2d_depiction', 'main form'],
        ['curator', '/curator', 'main h1'],
      ];
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        for (const [name, url, sel] of pages) {
          await page.goto(`${origin}${url}`);
          await ready();
          await page.waitForSelector(sel);
          await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) });
          if (width === 390) {
            const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
            t.ok(wide <= 391, `${name} at 390 px: ${wide} px wide`);
          }
        }
      }
      await page.goto(`${origin}/dereplication`);
      await ready();
      await page.fill('textarea', '303.0499');
      await page.click('button:text("Find matches")');
      await page.waitForSelector('table.matches');
      t.match(await page.textContent('table.matches'), /\[M\+H\]\+/, 'dereplication: quercetin\'s [M+H]+');
      await page.screenshot({ path: join(ARTIFACTS, 'dereplication-result-390.png') });
    });

    t.same(problems, [], 'no page error, console error, failed request or CSP violation');
    t.same(foreign, [], 'nothing asked of another host');
    t.comment(`whole browser test ${Math.round(performance.now() - t0)} ms`);
  });
}
