/**
 * Search results as a grid of depictions (natprod's /depict/2D SVG, as images: an SVG in <img>
 * runs nothing) with identifier, name and what the search adds (similarity, mass match), and
 * COCONUT's paginator as page links.
 */
import { h, type Child } from './dom.ts';
import { depictUrl } from './api.ts';

export interface SearchRecord {
  id: number;
  identifier: string;
  canonical_smiles: string;
  name?: string | null;
  iupac_name?: string | null;
  annotation_level?: number;
  organism_count?: number;
  citation_count?: number;
  active?: boolean;
  standard_inchi_key?: string;
  similarity?: number;
  match?: { mz: number; adduct: string; theoretical_mz: number; error_ppm: number; error_da: number; molecular_formula?: string };
}

export interface Paginator {
  current_page: number;
  last_page: number;
  total: number;
  per_page: number;
  from: number | null;
  to: number | null;
  data: SearchRecord[];
}

export function card(r: SearchRecord): HTMLElement {
  const title = r.name || r.iupac_name || r.identifier;
  const extra: Child[] = [];
  if (typeof r.similarity === 'number') extra.push(h('span', { class: 'tag' }, `similarity ${r.similarity.toFixed(2)}`));
  if (r.match) extra.push(h('span', { class: 'tag' }, `${r.match.adduct} ${r.match.theoretical_mz.toFixed(4)} (${r.match.error_ppm} ppm)`));
  if (r.active === false) extra.push(h('span', { class: 'tag warn' }, 'revoked'));
  return h(
    'li',
    { class: 'card' },
    h(
      'a',
      { href: `/compounds/${encodeURIComponent(r.identifier)}`, class: 'card-link' },
      h('img', { src: depictUrl(r.canonical_smiles, 240, 180), alt: `Structure of ${title}`, width: 240, height: 180, loading: 'lazy', decoding: 'async' }),
      h('span', { class: 'id' }, r.identifier),
      h('span', { class: 'name' }, title),
    ),
    extra.length ? h('p', { class: 'extra' }, extra) : null,
  );
}

export function grid(records: SearchRecord[]): HTMLElement {
  return h('ul', { class: 'grid', 'aria-label': 'Results' }, records.map(card));
}

/** Page links: first, previous, a window around the current page, next, last. */
export function pager(p: Paginator, go: (page: number) => void): HTMLElement | null {
  if (p.last_page <= 1) return null;
  const link = (n: number, label: string, current = false) =>
    h('li', {}, h('button', { type: 'button', class: current ? 'current' : '', 'aria-current': current ? 'page' : null, 'aria-label': `Page ${n}`, onclick: () => go(n) }, label));
  const items: HTMLElement[] = [];
  if (p.current_page > 1) items.push(h('li', {}, h('button', { type: 'button', onclick: () => go(p.current_page - 1) }, '‹ Previous')));
  const lo = Math.max(1, p.current_page - 2);
  const hi = Math.min(p.last_page, p.current_page + 2);
  if (lo > 1) items.push(link(1, '1'));
  if (lo > 2) items.push(h('li', { class: 'gap' }, '…'));
  for (let n = lo; n <= hi; n++) items.push(link(n, String(n), n === p.current_page));
  if (hi < p.last_page - 1) items.push(h('li', { class: 'gap' }, '…'));
  if (hi < p.last_page) items.push(link(p.last_page, String(p.last_page)));
  if (p.current_page < p.last_page) items.push(h('li', {}, h('button', { type: 'button', onclick: () => go(p.current_page + 1) }, 'Next ›')));
  return h('nav', { class: 'pager', 'aria-label': 'Pages' }, h('ul', {}, items));
}
