/**
 * RDKit MinimalLib (WASM) access for worker threads. The module is loaded once per thread;
 * a molecule lives in C++ memory and is only reachable through `withMol`, which deletes it
 * in `finally` whatever the callback does.
 */
import rdkitPackage from '@rdkit/rdkit';
import type { MainModule, Mol } from '@rdkit/rdkit';
import { AppError, invalidStructure } from '../errors.ts';

export type RDKit = MainModule;
export type { Mol };

let loading: Promise<RDKit> | undefined;

export function loadRDKit(): Promise<RDKit> {
  // The package is CommonJS whose typings declare an ES default export; at run time the
  // imported value is the factory itself.
  const factory = rdkitPackage as unknown as () => Promise<RDKit>;
  loading ??= factory().then((rdkit) => {
    rdkit.disable_logging();
    return rdkit;
  });
  return loading;
}

/** Largest structure text we parse; bigger inputs are refused before they reach WASM. */
export const MAX_STRUCTURE_CHARS = 100_000;

export type InputFormat = 'smiles' | 'cxsmiles' | 'molblock-v2000' | 'molblock-v3000';

/**
 * Recognise the notation of a structure string. Returns undefined for notations we do not
 * read (InChI, SDF with several records, PDB ...), so callers can answer 422 naming it.
 */
export function detectFormat(text: string): InputFormat | { unsupported: string } {
  const t = text.trim();
  if (/^InChI=/i.test(t)) return { unsupported: 'InChI' };
  if (/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(t)) return { unsupported: 'InChIKey' };
  if (t.includes('\n') || /M {2}END/.test(t)) {
    if (/V3000/.test(t)) return 'molblock-v3000';
    if (/V2000/.test(t)) return 'molblock-v2000';
    if (/^(HEADER|ATOM|HETATM)\b/m.test(t)) return { unsupported: 'PDB' };
    return { unsupported: 'unrecognised multi-line text (expected a V2000 or V3000 molblock)' };
  }
  if (/\s\|.*\|\s*$/.test(t)) return 'cxsmiles';
  return 'smiles';
}

/** Query-string decoding turns `+` into space; SMILES never contain spaces before a CX block. */
export function normaliseSmiles(smiles: string): string {
  const bar = smiles.indexOf(' |');
  if (bar >= 0) return smiles.slice(0, bar).replaceAll(' ', '+') + smiles.slice(bar);
  return smiles.trim().replaceAll(' ', '+');
}

export function parseMol(rdkit: RDKit, input: string, what = 'SMILES'): Mol {
  if (typeof input !== 'string' || input.trim() === '') throw invalidStructure(String(input ?? ''), what);
  if (input.length > MAX_STRUCTURE_CHARS) {
    throw new AppError(422, `Structure too large: ${input.length} characters (limit ${MAX_STRUCTURE_CHARS})`, 'invalid_input');
  }
  const text = input.includes('\n') ? input : normaliseSmiles(input);
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(text);
  } catch {
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw invalidStructure(input.includes('\n') ? 'molblock' : text, what);
  }
  return mol;
}

/** Parse, run, delete. The only sanctioned way to touch a molecule. */
export function withMol<T>(rdkit: RDKit, input: string, fn: (mol: Mol) => T, what = 'SMILES'): T {
  const mol = parseMol(rdkit, input, what);
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

/** Same for SMARTS queries; returns undefined (not an error) when the pattern does not parse. */
export function withQuery<T>(rdkit: RDKit, smarts: string, fn: (q: Mol) => T): T | undefined {
  let q: Mol | null = null;
  try {
    q = rdkit.get_qmol(smarts);
  } catch {
    q = null;
  }
  if (!q || !q.is_valid()) {
    q?.delete();
    return undefined;
  }
  try {
    return fn(q);
  } finally {
    q.delete();
  }
}
