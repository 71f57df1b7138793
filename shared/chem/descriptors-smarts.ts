/**
 * SMARTS queries compiled once per worker thread. QED alerts and PAINS add up to ~600
 * patterns that every molecule is matched against; re-parsing them per call would cost
 * more than the matching. These few query molecules are deliberately kept for the life of
 * the thread (a fixed set, never per request), the one exception to "delete every JSMol".
 */
import type { Mol, RDKit } from './rdkit.ts';

const compiled = new WeakMap<RDKit, Map<string, Mol | null>>();

/** The compiled query, or undefined when the SMARTS does not parse. */
export function query(rdkit: RDKit, smarts: string): Mol | undefined {
  let byText = compiled.get(rdkit);
  if (!byText) {
    byText = new Map();
    compiled.set(rdkit, byText);
  }
  let q = byText.get(smarts);
  if (q === undefined) {
    let parsed: Mol | null = null;
    try {
      parsed = rdkit.get_qmol(smarts);
    } catch {
      parsed = null;
    }
    if (parsed && !parsed.is_valid()) {
      parsed.delete();
      parsed = null;
    }
    q = parsed;
    byText.set(smarts, q);
  }
  return q ?? undefined;
}

export function requireQuery(rdkit: RDKit, smarts: string): Mol {
  const q = query(rdkit, smarts);
  if (!q) throw new Error(`SMARTS does not parse: ${smarts}`);
  return q;
}

export function hasMatch(mol: Mol, q: Mol): boolean {
  return mol.get_substruct_match(q) !== '{}';
}

/** Unique matches, at most 1000 as RDKit's SubstructMatch defaults. */
export function matches(mol: Mol, q: Mol): number[][] {
  const text = mol.get_substruct_matches(q);
  if (text === '{}' || text === '') return [];
  return (JSON.parse(text) as { atoms: number[] }[]).map((m) => m.atoms);
}
