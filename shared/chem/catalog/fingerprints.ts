/**
 * The two fingerprints of catalog structure search, computed once per molecule when it is
 * derived and stored with it:
 *
 * - `pattern`: RDKit's pattern fingerprint (2048 bits), the substructure screen. A query's
 *   pattern bits are a subset of every molecule that contains it, so a molecule lacking one of
 *   the query's bits cannot match and is skipped before RDKit's matcher runs.
 * - `morgan`: Morgan (ECFP-like) bits of radius 2 folded to 2048, for Tanimoto similarity. The
 *   same parameters as RDKit's `GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)`.
 *
 * Stored compactly: the pattern fingerprint as 256 bytes, the Morgan fingerprint as its sorted
 * on-bit positions (16 bits each; natural products set 30-90 of 2048), both base64.
 *
 * Chemistry the catalog's derivation (derive.ts) computes and the structure-search engine
 * (shared/structure-search/) reads and screens with; it lives here so that the engine imports
 * the chemistry, never the other way.
 */
import type { Mol } from '../core/rdkit.ts';

export const FP_BITS = 2048;
export const FP_WORDS = FP_BITS / 32;
/** Bumped when the definition changes: stored fingerprints of another version are recomputed. */
export const FP_VERSION = 1;

const PATTERN_PARAMS = JSON.stringify({ nBits: FP_BITS });
const MORGAN_PARAMS = JSON.stringify({ radius: 2, nBits: FP_BITS });

/** What a catalog molecule stores (`fingerprints` field). */
export interface StoredFingerprints {
  v: number;
  /** base64 of 256 bytes: the pattern fingerprint, bit i = byte i>>3, bit i&7. */
  pattern: string;
  /** base64 of little-endian uint16 on-bit positions of the Morgan fingerprint, ascending. */
  morgan: string;
}

export function patternBytes(mol: Mol): Uint8Array {
  return mol.get_pattern_fp_as_uint8array(PATTERN_PARAMS) as Uint8Array;
}

export function morganBytes(mol: Mol): Uint8Array {
  return mol.get_morgan_fp_as_uint8array(MORGAN_PARAMS) as Uint8Array;
}

/** Sorted on-bit positions of a dense fingerprint. */
export function onBits(dense: Uint8Array): Uint16Array {
  const out: number[] = [];
  for (let i = 0; i < dense.length; i++) {
    let b = dense[i];
    while (b) {
      const low = b & -b;
      out.push(i * 8 + 31 - Math.clz32(low));
      b ^= low;
    }
  }
  return Uint16Array.from(out);
}

/**
 * The Morgan fingerprint's on-bits from the molecule's unfolded radius-2 environment ids
 * (shared/chem/core/morgan-env.ts `morganCounts`, the ids RDKit's count fingerprint keys): RDKit
 * folds each id to bit `id % nBits`. The same bits as `onBits(morganBytes(mol))` (checked on the
 * 100,000 molecules of bench/data/search-100k.smi, the demo set and charged, isotope-labelled,
 * explicit-hydrogen and dummy-atom structures), without a second walk of the molecule in RDKit.
 */
export function foldedMorganBits(ids: Iterable<number>): Uint16Array {
  const dense = new Uint8Array(FP_BITS / 8);
  for (const id of ids) {
    const bit = id % FP_BITS;
    dense[bit >> 3] |= 1 << (bit & 7);
  }
  return onBits(dense);
}

/** @param morganIds the molecule's radius-2 Morgan environment ids when the caller has them (foldedMorganBits). */
export function searchFingerprints(mol: Mol, morganIds?: Iterable<number>): StoredFingerprints {
  const bits = morganIds ? foldedMorganBits(morganIds) : onBits(morganBytes(mol));
  return {
    v: FP_VERSION,
    pattern: Buffer.from(patternBytes(mol)).toString('base64'),
    morgan: Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength).toString('base64'),
  };
}

/** Decoded fingerprints, or undefined when the stored value is missing, malformed or outdated. */
export function decodeFingerprints(v: unknown): { pattern: Uint8Array; morgan: Uint16Array } | undefined {
  const f = v as Partial<StoredFingerprints> | null | undefined;
  if (!f || f.v !== FP_VERSION || typeof f.pattern !== 'string' || typeof f.morgan !== 'string') return undefined;
  const pattern = Buffer.from(f.pattern, 'base64');
  const m = Buffer.from(f.morgan, 'base64');
  if (pattern.length !== FP_BITS / 8 || m.length % 2) return undefined;
  const morgan = new Uint16Array(m.length / 2);
  for (let i = 0; i < morgan.length; i++) morgan[i] = m.readUInt16LE(2 * i);
  return { pattern: new Uint8Array(pattern), morgan };
}
