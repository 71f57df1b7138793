/**
 * The size bounds of a structure text, checked on the text without parsing it: by the RDKit
 * threads before a text reaches WASM (shared/chem/core/rdkit.ts, `assertStructureSize`) and by the toolkit routes
 * before it reaches a sidecar (shared/toolkits/routes.ts), so that every toolkit refuses the same
 * inputs with the same 422 (docs/architecture.md, "Limits"). No chemistry is imported here: the
 * operation registry (which imports no chemistry) and the worker's main thread use it too.
 */
import { AppError } from './errors.ts';

/** Largest structure text we parse; bigger inputs are refused before they reach a toolkit. */
export const MAX_STRUCTURE_CHARS = 100_000;

/** Largest input given 3D coordinates, whatever the toolkit: beyond it MMFF minimisation takes seconds to minutes per try. */
export const MAX_3D_HEAVY_ATOMS = 100;

const SMILES_ATOM = /\[([^\]]*)\]|Cl|Br|[BCNOPSFIbcnops*]/g;

/**
 * Heavy atoms written in a SMILES (up to the first space, so CXSMILES extensions do not count)
 * or in a V2000/V3000 molblock, counted on the text without parsing it; hydrogen atoms are not
 * counted.
 */
export function countHeavyAtoms(text: string): number {
  if (text.includes('\n')) return molblockHeavyAtoms(text);
  const smiles = text.trim().split(/\s/, 1)[0];
  let n = 0;
  for (const m of smiles.matchAll(SMILES_ATOM)) {
    if (m[1] !== undefined && /^\d*H(?![a-z])/.test(m[1])) continue;
    n++;
  }
  return n;
}

function molblockHeavyAtoms(text: string): number {
  const lines = text.split(/\r?\n/);
  const hydrogen = (symbol: string) => symbol === 'H' || symbol === 'D' || symbol === 'T';
  let n = 0;
  if (/V3000/.test(text)) {
    let inAtoms = false;
    for (const line of lines) {
      if (/^M {2}V30 BEGIN ATOM/.test(line)) inAtoms = true;
      else if (/^M {2}V30 END ATOM/.test(line)) inAtoms = false;
      else if (inAtoms) {
        const symbol = line.slice(7).trim().split(/\s+/)[1];
        if (symbol && !hydrogen(symbol)) n++;
      }
    }
    return n;
  }
  const counts = lines.findIndex((l) => /V2000\s*$/.test(l));
  if (counts < 0) return 0;
  const atoms = Number.parseInt(lines[counts].slice(0, 3), 10) || 0;
  for (const line of lines.slice(counts + 1, counts + 1 + atoms)) if (!hydrogen(line.slice(31, 34).trim())) n++;
  return n;
}

/** 422 when a structure text is longer than MAX_STRUCTURE_CHARS. */
export function assertLength(text: string): void {
  if (text.length > MAX_STRUCTURE_CHARS) {
    throw new AppError(422, `Structure too large: ${text.length} characters (limit ${MAX_STRUCTURE_CHARS})`, 'invalid_input');
  }
}

/** 422 when a structure text is longer than MAX_STRUCTURE_CHARS or has more than `maxHeavyAtoms` heavy atoms. */
export function assertWithinSize(text: string, maxHeavyAtoms: number): void {
  assertLength(text);
  const n = countHeavyAtoms(text);
  if (n > maxHeavyAtoms) {
    throw new AppError(422, `Structure too large: ${n} heavy atoms (limit ${maxHeavyAtoms})`, 'invalid_input');
  }
}

/** 422 when a structure has more heavy atoms than 3D coordinates are computed for (the message of every toolkit). */
export function assertEmbeddable(heavy: number): void {
  if (heavy > MAX_3D_HEAVY_ATOMS) {
    throw new AppError(422, `Too many heavy atoms for 3D coordinates: ${heavy} (limit ${MAX_3D_HEAVY_ATOMS})`, 'invalid_input');
  }
}
