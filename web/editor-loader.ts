/**
 * Opens the structure editor. Its chunk is fetched the first time the editor is opened, never
 * with the first page: Ketcher (web/ketcher.ts: React, ketcher-react, Indigo's WASM in a worker).
 * Should Ketcher not start (its chunk, stylesheet, worker or WASM fails, or it is not ready in
 * KETCHER_WAIT_MS), OpenChemLib's editor (web/editor.ts) takes its place, and the page says so.
 */
import { h } from './dom.ts';

export type UseStructure = (smiles: string, mode: 'substructure' | 'exact' | 'similarity') => void;

const KETCHER_WAIT_MS = 20_000;

export async function openEditor(host: HTMLElement, smiles: string, use: UseStructure): Promise<void> {
  const t0 = performance.now();
  delete host.dataset.editor; // set again by the editor that mounts
  try {
    const { mountEditor } = await import('./ketcher.ts');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not ready after ${KETCHER_WAIT_MS / 1000} s`)), KETCHER_WAIT_MS);
    });
    await Promise.race([mountEditor(host, smiles, use), late]).finally(() => clearTimeout(timer));
  } catch (err) {
    const { mountEditor } = await import('./editor.ts');
    mountEditor(host, smiles, use);
    host.dataset.editorKind = 'openchemlib';
    host.querySelector('h2')?.after(
      h('p', { class: 'note', role: 'status' }, `Ketcher could not start (${(err as Error).message ?? err}); this is OpenChemLib's simpler editor instead.`),
    );
  }
  host.dataset.loadMs = String(Math.round(performance.now() - t0));
}
