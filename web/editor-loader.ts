/**
 * Opens the structure editor: its chunk (web/editor.ts with OpenChemLib's canvas editor, ~1 MB)
 * is fetched the first time the editor is opened, never with the first page.
 */
export type UseStructure = (smiles: string, mode: 'substructure' | 'exact' | 'similarity') => void;

export async function openEditor(host: HTMLElement, smiles: string, use: UseStructure): Promise<void> {
  const t0 = performance.now();
  const { mountEditor } = await import('./editor.ts');
  mountEditor(host, smiles, use);
  host.dataset.loadMs = String(Math.round(performance.now() - t0));
}
