/**
 * The structure editor (a lazy chunk, web/editor-loader.ts): OpenChemLib's canvas editor
 * (`CanvasEditor`, drawn in a <canvas>, no network, no inline styles), with a SMILES field that
 * loads into it and reads back from it, and the three structure searches.
 */
import { CanvasEditor, Molecule } from 'openchemlib';
import { h, fill, field, status } from './dom.ts';
import type { UseStructure } from './editor-loader.ts';

let editor: CanvasEditor | undefined;

export function mountEditor(host: HTMLElement, smiles: string, use: UseStructure): void {
  const canvasHost = h('div', { class: 'ocl-editor', role: 'application', 'aria-label': 'Drawing area (mouse or touch); or type a SMILES below' });
  const input = h('input', { type: 'text', id: 'editor-smiles', autocomplete: 'off', spellcheck: 'false' }) as HTMLInputElement;
  const err = status('error');
  const read = (): string => {
    const mol = editor!.getMolecule();
    return mol.getAllAtoms() ? mol.toIsomericSmiles() : '';
  };
  const load = () => {
    err.textContent = '';
    try {
      const mol = input.value.trim() ? Molecule.fromSmiles(input.value.trim()) : new Molecule(0, 0);
      mol.inventCoordinates();
      editor!.setMolecule(mol);
      editor!.moleculeChanged(); // redraws
    } catch (e) {
      err.textContent = `Not a SMILES OpenChemLib can read: ${(e as Error).message ?? e}`;
    }
  };
  const search = (mode: 'substructure' | 'exact' | 'similarity') => () => {
    const s = read() || input.value.trim();
    if (!s) {
      err.textContent = 'Draw a structure or type a SMILES first.';
      return;
    }
    use(s, mode);
  };
  editor?.destroy();
  fill(
    host,
    h('h2', {}, 'Draw a structure'),
    canvasHost,
    h(
      'div',
      { class: 'row' },
      field('SMILES', input, 'Paste a SMILES and press Load; drawing updates it.'),
      h('button', { type: 'button', onclick: load }, 'Load'),
    ),
    err,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: search('substructure') }, 'Substructure search'),
      h('button', { type: 'button', onclick: search('exact') }, 'Exact search'),
      h('button', { type: 'button', onclick: search('similarity') }, 'Similarity search'),
      h('button', { type: 'button', onclick: () => ((host.hidden = true), editor?.destroy(), (editor = undefined)) }, 'Close'),
    ),
  );
  editor = new CanvasEditor(canvasHost, { initialMode: 'molecule' });
  input.value = smiles;
  if (smiles) load();
  editor.setOnChangeListener((e) => {
    if (e.isUserEvent) input.value = read();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') (e.preventDefault(), load());
  });
  host.dataset.editor = 'ready';
  input.focus();
}
