/**
 * The web interface's first script (docs/web.md): reads the path and draws that page into <main>.
 * Every page is a plain module here (small); the structure editor, with OpenChemLib, is a chunk
 * loaded only when it is opened (web/editor-loader.ts).
 */
import './style.css';
import { h, fill, setTitle } from './dom.ts';
import { searchPage } from './pages/search.ts';
import { compoundPage } from './pages/compound.ts';
import { collectionsPage } from './pages/collections.ts';
import { dereplicationPage } from './pages/dereplication.ts';
import { toolsPage, toolPage } from './pages/tools.ts';
import { jobPage } from './pages/job.ts';
import { curatorPage } from './pages/curator.ts';

type Page = (main: HTMLElement, params: string[]) => void | Promise<void>;

const ROUTES: [RegExp, Page][] = [
  [/^\/search$/, searchPage],
  [/^\/compounds\/([^/]+)$/, compoundPage],
  [/^\/collections$/, collectionsPage],
  [/^\/dereplication$/, dereplicationPage],
  [/^\/tools$/, toolsPage],
  [/^\/tools\/([^/]+)$/, toolPage],
  [/^\/jobs\/([^/]+)$/, jobPage],
  [/^\/curator$/, curatorPage],
];

async function start(): Promise<void> {
  const main = document.getElementById('main')!;
  const path = location.pathname.replace(/(.)\/$/, '$1');
  // The current page's link in the menu.
  for (const a of document.querySelectorAll<HTMLAnchorElement>('header nav a')) {
    if (path === a.pathname || path.startsWith(`${a.pathname}/`)) a.setAttribute('aria-current', 'page');
  }
  for (const [re, page] of ROUTES) {
    const m = re.exec(path);
    if (!m) continue;
    fill(main);
    try {
      await page(main, m.slice(1).map(decodeURIComponent));
    } catch (err) {
      fill(main, h('h1', {}, 'Something went wrong'), h('p', { role: 'alert' }, String((err as Error).message ?? err)));
    }
    ready();
    return;
  }
  setTitle('Not found');
  fill(main, h('h1', {}, 'Page not found'), h('p', {}, h('a', { href: '/search' }, 'Search the catalog')));
  ready();
}

/** The page is drawn and answers input: marked for tests, with the time since navigation (bench/web.ts). */
function ready(): void {
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = 'true';
}

void start();
