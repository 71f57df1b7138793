/**
 * An operation's answer on a page: images (SVG, PNG) as <img> from a blob (an SVG in <img> runs
 * nothing), HTML answers (the 3D viewer, descriptor tables) in a frame loading the same URL, JSON
 * as a table when it is flat (an object of values, or a list of such objects) and as indented text
 * otherwise, plain text as text.
 */
import { h, type Child } from './dom.ts';
import type { Answer } from './api.ts';

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const cell = (v: unknown): Child => (scalar(v) ? String(v) : h('code', {}, JSON.stringify(v)));

export function renderJson(v: unknown): HTMLElement {
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => scalar(x) || (Array.isArray(x) && x.every(scalar)))) {
    return h('table', { class: 'answer' }, h('tbody', {}, Object.entries(v).map(([k, x]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, Array.isArray(x) ? x.join(', ') : String(x))))));
  }
  if (Array.isArray(v) && v.length && v.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    const cols = [...new Set(v.flatMap((r) => Object.keys(r as object)))];
    return h(
      'table',
      { class: 'answer' },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, v.map((r) => h('tr', {}, cols.map((c) => h('td', {}, cell((r as Record<string, unknown>)[c])))))),
    );
  }
  if (Array.isArray(v) && v.every(scalar)) return h('ol', { class: 'answer' }, v.map((x) => h('li', {}, h('code', {}, String(x)))));
  return h('pre', { class: 'answer' }, typeof v === 'string' ? v : JSON.stringify(v, null, 2));
}

export function renderAnswer(ans: Answer, url: string): HTMLElement {
  if (ans.type === 'image/svg+xml' || ans.type === 'image/png') {
    const blob = ans.body instanceof Blob ? ans.body : new Blob([String(ans.body)], { type: ans.type });
    return h('figure', { class: 'answer' }, h('img', { src: URL.createObjectURL(blob), alt: 'The depiction answered' }));
  }
  if (ans.type === 'text/html') return h('iframe', { src: url, title: 'The page answered', class: 'answer', width: 640, height: 420 });
  if (ans.type === 'application/json') return renderJson(ans.body);
  return h('pre', { class: 'answer' }, String(ans.body));
}
