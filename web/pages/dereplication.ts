/**
 * /dereplication: MS dereplication through `POST /api/search` with `type: "mass"`
 * (docs/dereplication.md): a list of m/z values, adducts, a tolerance in ppm or Da, an optional
 * taxon; the matches per m/z with their adduct, theoretical m/z and error.
 */
import { h, fill, field, status, setTitle } from '../dom.ts';
import { json } from '../api.ts';
import { grid, type SearchRecord } from '../results.ts';

const ADDUCTS_POS = ['[M+H]+', '[M+Na]+', '[M+K]+', '[M+NH4]+', '[M+H-H2O]+', '[M]+'];
const ADDUCTS_NEG = ['[M-H]-', '[M+Cl]-', '[M+FA-H]-', '[M-H2O-H]-', '[M]-'];

export function dereplicationPage(main: HTMLElement): void {
  setTitle('Dereplication');
  const mz = h('textarea', { rows: 4, name: 'mz', placeholder: '303.0499\n465.1028', spellcheck: 'false' }) as HTMLTextAreaElement;
  const boxes = [...ADDUCTS_POS, ...ADDUCTS_NEG].map((a) => {
    const id = `add-${a.replace(/\W/g, '')}`;
    const cb = h('input', { type: 'checkbox', id, value: a, checked: a === '[M+H]+' || a === '[M+Na]+' }) as HTMLInputElement;
    return { cb, el: h('label', { for: id, class: 'check' }, cb, ` ${a}`) };
  });
  const tol = h('input', { type: 'number', name: 'tolerance', min: 0, step: 'any', value: '5' }) as HTMLInputElement;
  const unit = h('select', { name: 'unit' }, h('option', { value: 'ppm' }, 'ppm'), h('option', { value: 'da' }, 'Da')) as HTMLSelectElement;
  const taxon = h('input', { type: 'text', name: 'taxon', placeholder: 'Asteraceae' }) as HTMLInputElement;
  const state = status();
  const out = h('section', { 'aria-label': 'Matches' });
  const run = async (e: Event) => {
    e.preventDefault();
    const values = mz.value.split(/[\s,;]+/).filter(Boolean);
    if (!values.length) {
      state.className = 'status error';
      state.textContent = 'Enter at least one m/z value.';
      return;
    }
    const body: Record<string, unknown> = { type: 'mass', query: values, adducts: boxes.filter((b) => b.cb.checked).map((b) => b.cb.value), limit: 24 };
    if (!(body.adducts as string[]).length) delete body.adducts;
    body[unit.value === 'ppm' ? 'tolerance_ppm' : 'tolerance_da'] = Number(tol.value);
    if (taxon.value.trim()) body.taxon = taxon.value.trim();
    state.className = 'status info';
    state.textContent = 'Searching…';
    try {
      const ans = await json<{ data: { mz: number; total: number; hits: SearchRecord[] }[] }>('/api/search', { json: body, auth: false });
      state.textContent = `${ans.data.reduce((n, v) => n + v.total, 0)} matches for ${ans.data.length} m/z value${ans.data.length === 1 ? '' : 's'}.`;
      fill(
        out,
        ans.data.map((v) =>
          h(
            'section',
            { class: 'mz' },
            h('h2', {}, `m/z ${v.mz}`, h('small', {}, ` ${v.total} match${v.total === 1 ? '' : 'es'}`)),
            v.hits.length
              ? [
                  h(
                    'table',
                    { class: 'matches' },
                    h('thead', {}, h('tr', {}, ['Compound', 'Adduct', 'Theoretical m/z', 'Error (ppm)', 'Error (Da)', 'Formula'].map((c) => h('th', { scope: 'col' }, c)))),
                    h(
                      'tbody',
                      {},
                      v.hits.map((r) =>
                        h('tr', {}, h('td', {}, h('a', { href: `/compounds/${encodeURIComponent(r.identifier)}` }, r.identifier), ' ', r.name ?? ''), h('td', {}, r.match!.adduct), h('td', {}, r.match!.theoretical_mz.toFixed(6)), h('td', {}, String(r.match!.error_ppm)), h('td', {}, String(r.match!.error_da)), h('td', {}, r.match!.molecular_formula ?? '')),
                      ),
                    ),
                  ),
                  grid(v.hits),
                ]
              : null,
          ),
        ),
      );
    } catch (err) {
      state.className = 'status error';
      state.textContent = (err as Error).message;
    }
  };
  fill(
    main,
    h('h1', {}, 'Dereplication by mass'),
    h(
      'form',
      { onsubmit: run, class: 'derep' },
      field('Measured m/z values', mz, 'One or more, separated by spaces, commas or lines (up to 1,000).'),
      h('fieldset', { class: 'adducts' }, h('legend', {}, 'Adducts (none checked: all of them)'), boxes.map((b) => b.el)),
      h('div', { class: 'row' }, field('Tolerance', tol), field('Unit', unit), field('Taxon (optional)', taxon, 'Only molecules reported from organisms under it.')),
      h('button', { type: 'submit', class: 'primary' }, 'Find matches'),
    ),
    state,
    out,
  );
}
