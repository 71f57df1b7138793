/**
 * /tools and /tools/{operation}: every chemistry operation as a form generated from the OpenAPI
 * document (/openapi.json, built from the operation registry's zod schemas), so an operation added
 * to the registry appears here with no UI code. Enumerations become menus, booleans checkboxes,
 * numbers number fields, a text body a text area, an upload a file field. Long operations run as
 * jobs (`async=true`): the page goes to /jobs/{id}, which follows them.
 */
import { h, fill, field, status, setTitle } from '../dom.ts';
import { call, json } from '../api.ts';
import { renderAnswer } from '../render.ts';

interface Param {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: { type?: string; enum?: unknown[]; default?: unknown; minimum?: number; maximum?: number; description?: string; anyOf?: unknown[] };
  example?: unknown;
}
export interface Operation {
  path: string;
  method: string;
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, { description?: string }> } }> };
  responses: Record<string, unknown>;
}

const FAMILIES = ['convert', 'chem', 'depict', 'tools'];
let cached: Promise<Operation[]> | undefined;

/** The chemistry operations of the OpenAPI document: those a client may run as a job (`async`). */
export function operations(): Promise<Operation[]> {
  cached ??= json<{ paths: Record<string, Record<string, Omit<Operation, 'path' | 'method'>>> }>('/openapi.json').then((doc) =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => FAMILIES.includes(op.tags?.[0] ?? '') && op.parameters?.some((p) => p.name === 'async'))
        .map(([method, op]) => ({ ...op, path, method: method.toUpperCase() })),
    ),
  );
  return cached;
}

export async function toolsPage(main: HTMLElement): Promise<void> {
  setTitle('Tools');
  const ops = await operations();
  fill(
    main,
    h('h1', {}, 'Chemistry tools'),
    h('p', {}, `${ops.length} operations of natprod's chemistry service, each as a form. Long ones run as jobs you can follow and cancel.`),
    FAMILIES.map((tag) => {
      const mine = ops.filter((o) => o.tags?.[0] === tag);
      return mine.length
        ? h('section', {}, h('h2', {}, tag), h('ul', { class: 'tools' }, mine.map((o) => h('li', {}, h('a', { href: `/tools/${o.operationId}` }, o.summary ?? o.operationId), ' ', h('small', {}, `${o.method} ${o.path}`), o.responses['202'] ? h('span', { class: 'tag' }, 'job') : null))))
        : null;
    }),
  );
}

function control(p: Param): HTMLElement {
  const s = p.schema;
  const dflt = s.default;
  if (Array.isArray(s.enum)) {
    const sel = h('select', { name: p.name }, p.required ? null : h('option', { value: '' }, dflt === undefined ? '(none)' : `(default: ${String(dflt)})`), s.enum.map((v) => h('option', { value: String(v) }, String(v)))) as HTMLSelectElement;
    return sel;
  }
  if (s.type === 'boolean') return h('input', { type: 'checkbox', name: p.name, checked: dflt === true });
  if (s.type === 'integer' || s.type === 'number') return h('input', { type: 'number', name: p.name, step: s.type === 'integer' ? 1 : 'any', min: s.minimum, max: s.maximum, placeholder: dflt === undefined ? '' : String(dflt), value: p.required && p.example !== undefined ? String(p.example) : null });
  const long = /smiles|molblock|text|input/i.test(p.name);
  const el = h(long ? 'textarea' : 'input', { name: p.name, rows: long ? 2 : null, type: long ? null : 'text', spellcheck: 'false', placeholder: dflt === undefined || dflt === '' ? (p.example === undefined ? '' : `e.g. ${String(p.example)}`) : String(dflt), required: p.required });
  if (p.required && p.example !== undefined) (el as HTMLInputElement).value = String(p.example);
  return el;
}

export async function toolPage(main: HTMLElement, [name]: string[]): Promise<void> {
  const op = (await operations()).find((o) => o.operationId === name);
  if (!op) {
    setTitle('No such tool');
    fill(main, h('h1', {}, 'No such tool'), h('p', {}, `natprod has no operation named ${name}. `, h('a', { href: '/tools' }, 'All tools')));
    return;
  }
  setTitle(op.summary ?? op.operationId);
  const long = '202' in op.responses;
  const params = (op.parameters ?? []).filter((p) => p.name !== 'async');
  const controls = new Map(params.map((p) => [p.name, control(p)]));
  const content = op.requestBody?.content ?? {};
  const textBody = 'text/plain' in content ? (h('textarea', { name: 'body', rows: 8, spellcheck: 'false', required: true }) as HTMLTextAreaElement) : undefined;
  const fileBody = 'multipart/form-data' in content ? (h('input', { type: 'file', name: 'file', required: true }) as HTMLInputElement) : undefined;
  const fileField = Object.keys(content['multipart/form-data']?.schema?.properties ?? { file: {} })[0]!;
  const state = status();
  const out = h('section', { 'aria-label': 'Answer', id: 'answer' });
  const run = async (e: Event) => {
    e.preventDefault();
    const q = new URLSearchParams();
    let path = op.path;
    for (const p of params) {
      const el = controls.get(p.name) as HTMLInputElement;
      const v = el.type === 'checkbox' ? (el.checked === (p.schema.default === true) ? '' : String(el.checked)) : el.value.trim();
      if (v === '') continue;
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(v));
      else q.set(p.name, v);
    }
    if (long) q.set('async', 'true');
    const url = `${path}${q.size ? `?${q}` : ''}`;
    let body: BodyInit | undefined;
    if (textBody) body = textBody.value;
    if (fileBody?.files?.[0]) {
      const fd = new FormData();
      fd.append(fileField, fileBody.files[0]);
      body = fd;
    }
    state.className = 'status info';
    state.textContent = long ? 'Submitting the job…' : 'Running…';
    fill(out);
    const t0 = performance.now();
    try {
      const ans = await call(url, { method: op.method, body });
      if (ans.status === 202) {
        const id = (ans.body as { job_id?: string; id?: string }).job_id ?? (ans.body as { id?: string }).id;
        location.assign(`/jobs/${encodeURIComponent(String(id))}`);
        return;
      }
      state.textContent = `Answered in ${Math.round(performance.now() - t0)} ms (${ans.type}).`;
      fill(out, renderAnswer(ans, url));
    } catch (err) {
      state.className = 'status error';
      state.textContent = (err as Error).message;
    }
  };
  fill(
    main,
    h('p', {}, h('a', { href: '/tools' }, '‹ All tools')),
    h('h1', {}, op.summary ?? op.operationId),
    op.description ? h('p', { class: 'description' }, op.description) : null,
    h('p', { class: 'hint' }, `${op.method} ${op.path}`, long ? ' · runs as a job' : ''),
    h(
      'form',
      { onsubmit: run, class: 'tool' },
      params.map((p) => field(p.required ? `${p.name} (required)` : p.name, controls.get(p.name)!, p.description ?? p.schema.description)),
      textBody ? field('Input', textBody, content['application/json']?.schema?.properties ? Object.values(content['application/json'].schema.properties)[0]?.description : undefined) : null,
      fileBody ? field('File', fileBody) : null,
      h('button', { type: 'submit', class: 'primary' }, long ? 'Start the job' : 'Run'),
    ),
    state,
    out,
  );
}
