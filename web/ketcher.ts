/**
 * The structure editor (a lazy chunk, web/editor-loader.ts): EPAM's Ketcher (ketcher-react, a
 * React component, with ketcher-standalone's Indigo WebAssembly in a worker: no server, no
 * network beyond this origin's files), a SMILES field that loads into the drawing and is updated
 * from it, and the three structure searches. The same `mountEditor(host, smiles, use)` as
 * OpenChemLib's editor (web/editor.ts), which the loader falls back to when Ketcher cannot start.
 * The stylesheet is linked here, not imported, so the first page's stylesheet stays small.
 */
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Editor } from 'ketcher-react';
import { StandaloneStructServiceProvider } from 'ketcher-standalone/dist/binaryWasm';
import type { Ketcher } from 'ketcher-core';
import { h, fill, field, status } from './dom.ts';
import type { UseStructure } from './editor-loader.ts';

declare const __KETCHER_CSS__: string;

let root: Root | undefined;
const provider = new StandaloneStructServiceProvider();

/** Links Ketcher's stylesheet (served beside this chunk) once; resolves when it has loaded. */
function linkStyle(): Promise<void> {
  const href = new URL(__KETCHER_CSS__, import.meta.url).pathname;
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = h('link', { rel: 'stylesheet', href });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`Ketcher's stylesheet did not load (${href})`)));
    document.head.append(link);
  });
}

/** Mounts Ketcher; resolves once it has drawn and Indigo (the WASM worker) answers. */
export async function mountEditor(host: HTMLElement, smiles: string, use: UseStructure): Promise<void> {
  await linkStyle();
  const drawing = h('div', { class: 'ketcher-editor', role: 'application', 'aria-label': 'Drawing area (Ketcher); or type a SMILES below' });
  const input = h('input', { type: 'text', id: 'editor-smiles', autocomplete: 'off', spellcheck: 'false' }) as HTMLInputElement;
  const err = status('error');
  let ketcher: Ketcher | undefined = undefined; // set once Ketcher calls onInit
  let loading = false;
  const read = async (): Promise<string> => (ketcher && !ketcher.editor.struct().isBlank() ? ketcher.getSmiles() : '');
  const load = async () => {
    err.textContent = '';
    loading = true;
    try {
      await ketcher!.setMolecule(input.value.trim());
    } catch (e) {
      err.textContent = `Not a SMILES Ketcher can read: ${(e as Error).message ?? e}`;
    } finally {
      loading = false;
    }
  };
  const search = (mode: 'substructure' | 'exact' | 'similarity') => async () => {
    let s = '';
    try {
      s = (await read()) || input.value.trim();
    } catch (e) {
      err.textContent = `Ketcher could not write the drawing as SMILES: ${(e as Error).message ?? e}`;
      return;
    }
    if (!s) {
      err.textContent = 'Draw a structure or type a SMILES first.';
      return;
    }
    use(s, mode);
  };
  const close = () => {
    host.hidden = true;
    root?.unmount();
    root = undefined;
  };
  root?.unmount();
  fill(
    host,
    h('h2', {}, 'Draw a structure'),
    drawing,
    h(
      'div',
      { class: 'row' },
      field('SMILES', input, 'Paste a SMILES and press Load; drawing updates it.'),
      h('button', { type: 'button', onclick: () => void load() }, 'Load'),
    ),
    err,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => void search('substructure')() }, 'Substructure search'),
      h('button', { type: 'button', onclick: () => void search('exact')() }, 'Exact search'),
      h('button', { type: 'button', onclick: () => void search('similarity')() }, 'Similarity search'),
      h('button', { type: 'button', onclick: close }, 'Close'),
    ),
  );
  input.value = smiles;
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') (e.preventDefault(), void load());
  });
  ketcher = await new Promise<Ketcher>((resolve, reject) => {
    root = createRoot(drawing);
    root.render(
      createElement(Editor, {
        staticResourcesUrl: new URL('.', import.meta.url).pathname,
        structServiceProvider: provider,
        disableMacromoleculesEditor: true,
        errorHandler: (message: string) => (ketcher ? (err.textContent = message) : reject(new Error(message))),
        onInit: resolve,
      }),
    );
  });
  await ketcher.indigo.info(); // the worker has compiled the WASM
  if (smiles) await load();
  ketcher.editor.subscribe('change', () => {
    if (loading) return;
    read().then(
      (s) => (input.value = s),
      () => undefined,
    );
  });
  host.dataset.editor = 'ready';
  host.dataset.editorKind = 'ketcher';
  input.focus();
}
