/**
 * Bit-fingerprint similarity (docs/spec/chem-service.md §2.1 (8), tool `generate_bitsimilarity_similarity`) on RDKit
 * MinimalLib fingerprints, set up as the original service sets up native RDKit so that the
 * Tanimoto values agree: ECFP = Morgan bits with chirality and radius = floor(diameter / 2)
 * (the `radius` parameter is really the ECFP diameter; MinimalLib's option is `useChirality`,
 * `includeChirality` is silently ignored), RDKit and atom-pair fingerprints with the
 * fingerprint-generator defaults, 167-bit MACCS keys.
 *
 * Chirality follows the rule of RDKit >= 2025.03 (github #7986), which MinimalLib implements and
 * `pip install rdkit` gives the original service: a centre's CIP label enters its Morgan
 * invariant from the first iteration at which its neighbours differ. RDKit <= 2024.09 added it
 * at the first iteration regardless, so its ECFP values differ for many stereo-bearing pairs
 * (test/fixtures/ecfp_chirality_reference.json carries both; docs/differences.md).
 */
import { type Mol, type RDKit, withMol } from '../core/rdkit.ts';
import { AppError } from '../../errors.ts';

export const MAX_MOLECULES = 500;

export const FINGERPRINTERS = ['ECFP', 'RDKit', 'Atompairs', 'MACCS'] as const;
export type Fingerprinter = (typeof FINGERPRINTERS)[number];

export interface FingerprintOptions {
  fingerprinter: Fingerprinter;
  /** Vector length; MACCS keys are always 167 bits. */
  nBits: number;
  /** ECFP diameter (2 = ECFP2 = Morgan radius 1); ignored by the other fingerprints. */
  radius: number;
  /** ECFP only; the service always sets it, tests switch it off to isolate the hashing. */
  chirality?: boolean;
}

export function fingerprint(mol: Mol, o: FingerprintOptions): Uint8Array {
  switch (o.fingerprinter) {
    case 'ECFP':
      return mol.get_morgan_fp_as_uint8array(
        JSON.stringify({ radius: Math.floor(o.radius / 2), nBits: o.nBits, useChirality: o.chirality ?? true }),
      );
    case 'RDKit':
      // GetRDKitFPGenerator defaults: paths of 1..7 bonds, branched, 2 bits per path.
      return mol.get_rdkit_fp_as_uint8array(JSON.stringify({ nBits: o.nBits, minPath: 1, maxPath: 7 }));
    case 'Atompairs':
      return mol.get_atom_pair_fp_as_uint8array(JSON.stringify({ nBits: o.nBits, minLength: 1, maxLength: 30 }));
    case 'MACCS':
      return mol.get_maccs_fp_as_uint8array();
  }
}

const popcount = (x: number) => {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
};

/** Tanimoto on bit vectors; two empty vectors count as identical (1.0), as RDKit's DataStructs do. */
export function tanimoto(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error('fingerprints of different lengths');
  let both = 0, either = 0;
  for (let i = 0; i < a.length; i++) {
    both += popcount(a[i] & b[i]);
    either += popcount(a[i] | b[i]);
  }
  return either === 0 ? 1 : both / either;
}

/** Two structures → one number; more → the full symmetric matrix, rows in input order. */
export function bitSimilarity(rdkit: RDKit, smiles: string[], o: FingerprintOptions): number | number[][] {
  if (smiles.length < 2) throw new AppError(422, 'At least two molecules are required.', 'invalid_input');
  // The matrix grows with the square of the count; bound it so one request cannot exhaust memory.
  if (smiles.length > MAX_MOLECULES) {
    throw new AppError(422, `At most ${MAX_MOLECULES} molecules per request (got ${smiles.length}).`, 'invalid_input');
  }
  const fps = smiles.map((s) => withMol(rdkit, s, (mol) => fingerprint(mol, o)));
  if (fps.length === 2) return tanimoto(fps[0], fps[1]);
  return fps.map((a) => fps.map((b) => tanimoto(a, b)));
}
