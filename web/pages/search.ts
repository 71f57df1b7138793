/**
 * /search: COCONUT's search box (one query, its type detected as COCONUT does; the server's
 * detection decides, api/catalog/search/detect.ts, and the page says what it will take the query
 * for), a structure editor for substructure / exact / similarity queries, filters written in
 * COCONUT's filter language, and a paged grid of results. The URL holds the query (q, type,
 * tagType, threshold, page), so a search can be shared and reloaded.
 */
import { h, fill, field, status, setTitle } from '../dom.ts';
import { call, depictUrl } from '../api.ts';
import { grid, pager, type Paginator } from '../results.ts';
import { openEditor } from '../editor-loader.ts';

const TYPES: [string, string][] = [
  ['', 'Detect from the query'],
  ['text', 'Name or text'],
  ['identifier', 'Identifier (CNP…)'],
  ['inchi', 'InChI'],
  ['inchikey', 'InChIKey'],
  ['molecularformula', 'Molecular formula'],
  ['substructure', 'Substructure (SMILES)'],
  ['exact', 'Exact structure'],
  ['similarity', 'Similar structures'],
  ['tags', 'Tags (collection, organism, citation, taxon)'],
  ['filters', 'Filters (COCONUT filter language)'],
];
const STRUCTURE = new Set(['smiles', 'substructure', 'exact', 'similarity']);

/** What the server will take a query for when no type is named (COCONUT's order, as detect.ts). */
export function detectType(q: string): string {
  if (q.startsWith('CNP')) return 'identifier';
  if (q.startsWith('InChI=')) return 'inchi';
  if (q.length === 27 && q[14] === '-' && /^[A-Z0-9-]+$/.test(q)) return 'inchikey';
  if (q.length === 14 && /^[A-Z]+$/.test(q)) return 'partialinchikey';
  if (/^(?:[A-Z][a-z]?\d*)+$/.test(q) && /\d/.test(q) && !/^[CNOSPFIBH]+$/i.test(q.replace(/\d/g, ''))) return 'molecularformula';
  if (/^M {2}END$/m.test(q) || /\bV[23]000\b/.test(q)) return 'smiles';
  if (/^[^J][0-9BCOHNSOPrIFla@+\-[\]()\\/%=#$]{6,}$/i.test(q)) return 'smiles';
  if (/^1S?\/[0-9BCOHNSOPrIFla+\-()\\/,pqbtmsih]+$/i.test(q)) return 'inchi';
  return 'text';
}

const LABEL: Record<string, string> = {
  identifier: 'an identifier',
  inchi: 'an InChI',
  inchikey: 'an InChIKey',
  partialinchikey: 'the first block of an InChIKey',
  molecularformula: 'a molecular formula',
  smiles: 'a structure (SMILES: substructure search)',
  text: 'a name or text',
};

export function searchPage(main: HTMLElement): void {
  setTitle('Search');
  const params = new URLSearchParams(location.search);
  const box = h('textarea', { name: 'q', rows: 2, autocomplete: 'off', spellcheck: 'false', placeholder: 'quercetin, CNP0000041, C15H10O7, InChIKey, SMILES…' }) as HTMLTextAreaElement;
  box.value = params.get('q') ?? '';
  const type = h('select', { name: 'type' }, TYPES.map(([v, l]) => h('option', { value: v }, l))) as HTMLSelectElement;
  type.value = params.get('type') ?? '';
  const tagType = h(
    'select',
    { name: 'tagType' },
    ['dataSource', 'organisms', 'citations', 'taxon'].map((v) => h('option', { value: v }, v === 'dataSource' ? 'collection' : v)),
  ) as HTMLSelectElement;
  tagType.value = params.get('tagType') ?? 'dataSource';
  const threshold = h('input', { type: 'number', name: 'threshold', min: 0, max: 1, step: 0.05, value: params.get('threshold') ?? '0.5' }) as HTMLInputElement;
  const detected = h('p', { class: 'hint', id: 'detected', 'aria-live': 'polite' });
  const preview = h('div', { class: 'preview' });
  const state = status();
  const results = h('section', { 'aria-label': 'Search results', id: 'results' });

  let previewTimer: number | undefined;
  const refresh = () => {
    const q = box.value.trim();
    const t = type.value || (q ? detectType(q) : '');
    detected.textContent = !type.value && q ? `Searched as ${LABEL[t] ?? t}.` : '';
    tagRow.hidden = type.value !== 'tags';
    thresholdRow.hidden = type.value !== 'similarity';
    clearTimeout(previewTimer);
    if (STRUCTURE.has(t) && q && !q.includes('\n')) {
      previewTimer = window.setTimeout(() => fill(preview, h('img', { src: depictUrl(q, 200, 150), alt: 'The query structure', width: 200, height: 150 })), 250);
    } else fill(preview);
  };
  const tagRow = field('Tag type', tagType);
  const thresholdRow = field('Similarity at least', threshold, 'Tanimoto, Morgan radius 2, 0 to 1');
  box.addEventListener('input', refresh);
  type.addEventListener('change', refresh);

  const form = h(
    'form',
    { class: 'search', role: 'search', onsubmit: (e: Event) => (e.preventDefault(), go(1)) },
    field('Search the catalog', box, 'A name, identifier, InChI, InChIKey, molecular formula or SMILES; its type is detected as COCONUT does.'),
    detected,
    h('div', { class: 'row' }, field('Search type', type), tagRow, thresholdRow),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Search'),
      h('button', { type: 'button', id: 'draw', onclick: () => void draw() }, 'Draw a structure'),
      h('button', { type: 'button', onclick: () => filters.toggleAttribute('hidden'), 'aria-controls': 'filters' }, 'Filters'),
    ),
    preview,
  );
  const editorHost = h('section', { class: 'editor-host', 'aria-label': 'Structure editor', hidden: true });
  const filters = filterForm((q, t, tt) => {
    box.value = q;
    type.value = t;
    if (tt) tagType.value = tt;
    refresh();
    go(1);
  });
  fill(main, h('h1', {}, 'Search natural products'), form, editorHost, filters, state, results);
  refresh();

  async function draw() {
    editorHost.hidden = false;
    state.textContent = 'Loading the structure editor…';
    try {
      await openEditor(editorHost, box.value.trim(), (smiles, mode) => {
        box.value = smiles;
        type.value = mode;
        editorHost.hidden = true;
        refresh();
        go(1);
      });
      state.textContent = '';
    } catch (err) {
      state.textContent = `The editor could not be loaded: ${(err as Error).message}`;
    }
  }

  function go(page: number) {
    const q = box.value.trim();
    const p = new URLSearchParams();
    if (q) p.set('q', q);
    if (type.value) p.set('type', type.value);
    if (type.value === 'tags') p.set('tagType', tagType.value);
    if (type.value === 'similarity') p.set('threshold', threshold.value);
    if (page > 1) p.set('page', String(page));
    history.pushState(null, '', `/search?${p}`);
    void run();
  }

  let current: AbortController | undefined;
  async function run() {
    const p = new URLSearchParams(location.search);
    const q = p.get('q') ?? '';
    if (!q && !p.get('type')) {
      fill(results);
      return;
    }
    current?.abort();
    const ctl = (current = new AbortController());
    const body: Record<string, unknown> = { query: q, limit: 24, page: Number(p.get('page') ?? 1) || 1 };
    const t = p.get('type');
    if (t) body.type = t;
    if (t === 'tags') body.tagType = p.get('tagType') ?? 'dataSource';
    if (t === 'similarity') body.threshold = Number(p.get('threshold') ?? 0.5);
    state.className = 'status info';
    state.textContent = 'Searching…';
    const t0 = performance.now();
    try {
      const ans = await call('/api/search', { json: body, signal: ctl.signal, auth: false });
      const page = (ans.body as { data: Paginator }).data;
      const ms = Math.round(performance.now() - t0);
      state.textContent = page.total
        ? `${page.total.toLocaleString('en')} molecule${page.total === 1 ? '' : 's'}; ${page.from}–${page.to} shown (${ms} ms).`
        : `No molecule found (${ms} ms).`;
      fill(results, grid(page.data), pager(page, go));
      results.dataset.renderedAt = String(performance.now());
      results.dataset.answeredAt = String(t0 + ms);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      state.className = 'status error';
      state.textContent = (err as Error).message;
      fill(results);
    }
  }
  window.addEventListener('popstate', () => {
    const p = new URLSearchParams(location.search);
    box.value = p.get('q') ?? '';
    type.value = p.get('type') ?? '';
    refresh();
    void run();
  });
  void run();
}

/** Filters (COCONUT's advanced search): composed into a `filters` query, or a taxon's `tags` search. */
function filterForm(apply: (query: string, type: string, tagType?: string) => void): HTMLElement {
  const input = (name: string, attrs: Record<string, string | number> = {}) => h('input', { name, type: 'text', ...attrs }) as HTMLInputElement;
  const range = (key: string, label: string, step = 'any') => {
    const lo = input(`${key}-min`, { type: 'number', step, inputmode: 'decimal' });
    const hi = input(`${key}-max`, { type: 'number', step, inputmode: 'decimal' });
    return { key, lo, hi, el: h('fieldset', { class: 'range' }, h('legend', {}, label), field('from', lo), field('to', hi)) };
  };
  const ranges = [range('mw', 'Molecular weight'), range('emw', 'Exact mass'), range('hac', 'Heavy atoms', '1'), range('alogp', 'AlogP'), range('np', 'NP-likeness')];
  const text: [string, string, HTMLInputElement][] = [
    ['np_pathway', 'NPClassifier pathway', input('np_pathway', { placeholder: 'Alkaloids' })],
    ['superclass', 'ClassyFire superclass', input('superclass')],
    ['ds', 'Collection', input('ds', { placeholder: 'a collection title' })],
    ['org', 'Organism name contains', input('org')],
  ];
  const sugar = h('select', { name: 'cs' }, h('option', { value: '' }, 'either'), h('option', { value: 'true' }, 'yes'), h('option', { value: 'false' }, 'no')) as HTMLSelectElement;
  const taxon = input('taxon', { placeholder: 'Asteraceae, Fungi, Artemisia' });
  const err = status('error');
  const onsubmit = (e: Event) => {
    e.preventDefault();
    err.textContent = '';
    if (taxon.value.trim()) return apply(taxon.value.trim(), 'tags', 'taxon');
    const parts: string[] = [];
    for (const r of ranges) {
      if (r.lo.value === '' && r.hi.value === '') continue;
      parts.push(`${r.key}:${r.lo.value}..${r.hi.value}`);
    }
    for (const [key, , el] of text) if (el.value.trim()) parts.push(`${key}:${el.value.trim().replace(/\s+/g, '+')}`);
    if (sugar.value) parts.push(`cs:${sugar.value}`);
    if (!parts.length) {
      err.textContent = 'Set at least one filter.';
      return;
    }
    apply(parts.join(' '), 'filters');
  };
  return h(
    'form',
    { id: 'filters', class: 'filters', hidden: true, 'aria-label': 'Filters', onsubmit },
    h('h2', {}, 'Filters'),
    h('div', { class: 'ranges' }, ranges.map((r) => r.el)),
    h('div', { class: 'row' }, text.map(([, label, el]) => field(label, el)), field('Contains sugar', sugar)),
    field('Taxon (any rank: the whole lineage below it)', taxon, 'Searched alone: the molecules reported from organisms under this taxon.'),
    h('p', { class: 'hint' }, 'For m/z values with adducts use ', h('a', { href: '/dereplication' }, 'Dereplication'), '.'),
    err,
    h('button', { type: 'submit', class: 'primary' }, 'Apply filters'),
  );
}
