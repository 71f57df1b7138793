/**
 * SMARTS queries compiled once per worker thread. QED alerts and PAINS add up to ~600
 * patterns that every molecule is matched against; re-parsing them per call would cost
 * more than the matching. These few query molecules are deliberately kept for the life of
 * the thread (a fixed set, never per request), the one exception to "delete every JSMol".
 * Each is kept with its JavaScript pre-screen (smarts-screen.ts), which MolView consults to
 * skip RDKit calls that cannot match.
 */
import type { Mol, RDKit } from './rdkit.ts';
import { compileScreen, type SmartsScreen } from './smarts-screen.ts';

/** A compiled SMARTS: RDKit's query (null when it does not parse) and the JavaScript screen. */
export interface CompiledSmarts {
  query: Mol | null;
  /** The pre-screen of smarts-screen.ts; undefined when the SMARTS is not screenable. */
  screen: SmartsScreen | undefined;
}

const compiled = new WeakMap<RDKit, Map<string, CompiledSmarts>>();

/**
 * The query and screen of a SMARTS, compiled on first use (one map lookup afterwards). Only
 * the fixed query sets above come here, so the map stays as small as they are.
 */
export function compiledSmarts(rdkit: RDKit, smarts: string): CompiledSmarts {
  let byText = compiled.get(rdkit);
  if (!byText) {
    byText = new Map();
    compiled.set(rdkit, byText);
  }
  let entry = byText.get(smarts);
  if (entry === undefined) {
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
    entry = { query: parsed, screen: parsed ? compileScreen(smarts) : undefined };
    byText.set(smarts, entry);
  }
  return entry;
}

/** The compiled query, or undefined when the SMARTS does not parse. */
export function query(rdkit: RDKit, smarts: string): Mol | undefined {
  return compiledSmarts(rdkit, smarts).query ?? undefined;
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
