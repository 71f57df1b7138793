/**
 * The one way pages build DOM: `h(tag, attributes, ...children)`. Strings become text nodes
 * (document.createTextNode), so catalog text is never parsed as HTML: a molecule named `<script>`
 * shows as those characters. No source in web/ hands markup to the HTML parser
 * (test/web/web-routes.test.ts checks the sources).
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attr = string | number | boolean | null | undefined | ((ev: Event) => unknown);

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, Attr> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v as EventListener);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

let ids = 0;
/** A fresh id, for label/input pairs. */
export const uid = (p = 'f') => `${p}-${++ids}`;

/** A labelled form field: label, control and optional hint, tied by ids. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  const id = control.id || uid();
  control.id = id;
  const hintEl = hint ? h('small', { id: `${id}-hint`, class: 'hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

/** A live status line (errors and progress are announced to screen readers). */
export function status(kind: 'info' | 'error' = 'info'): HTMLElement {
  return h('p', { class: `status ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'aria-live': 'polite' });
}

export function setTitle(title: string): void {
  document.title = `${title} · natprod`;
}
