/**
 * Index rows from catalog molecules (thread side): the pickle RDKit rebuilds a candidate from,
 * and the molecule's search fingerprints, taken from the stored record when it has current ones
 * and computed otherwise (then also returned, so the caller can store them: the backfill).
 */
import type { RDKit } from '../chem/core/rdkit.ts';
import type { RowInput } from '../chem/catalog/ports.ts';
import { decodeFingerprints, searchFingerprints, type StoredFingerprints } from '../chem/catalog/fingerprints.ts';

/**
 * Pickles without the molecule's properties: a quarter smaller (397 against 528 bytes at the
 * median of the tropane candidates of the 100,000-molecule set; the pickle heap is the index's
 * largest column) and a little quicker to rebuild; RDKit's matcher reads none of them (the same
 * answer for 168,000 query/molecule pairs, chirality on and off, 2026-11-30).
 */
const PICKLE = JSON.stringify({ propertyFlags: { NoProps: true } });

export interface RowOutput {
  id: number;
  pattern: Uint8Array;
  morgan: Uint16Array;
  pickle: Uint8Array;
  /** Present when the fingerprints were computed here (missing or outdated in the record). */
  computed?: StoredFingerprints;
}

/** Rows for the molecules that RDKit can read; `failed` lists the ids it cannot (left out of the index). */
export function indexRows(rdkit: RDKit, inputs: RowInput[]): { rows: RowOutput[]; failed: number[] } {
  const rows: RowOutput[] = [];
  const failed: number[] = [];
  for (const input of inputs) {
    let mol = null;
    try {
      mol = typeof input.smiles === 'string' && input.smiles ? rdkit.get_mol(input.smiles) : null;
    } catch {
      mol = null;
    }
    if (!mol || !mol.is_valid()) {
      mol?.delete();
      failed.push(input.id);
      continue;
    }
    try {
      let fp = decodeFingerprints(input.fingerprints);
      let computed: StoredFingerprints | undefined;
      if (!fp) {
        computed = searchFingerprints(mol);
        fp = decodeFingerprints(computed)!;
      }
      rows.push({ id: input.id, pattern: fp.pattern, morgan: fp.morgan, pickle: mol.get_as_uint8array(PICKLE) as Uint8Array, computed });
    } finally {
      mol.delete();
    }
  }
  return { rows, failed };
}
