/**
 * RDKit as the perception engine of the standardizer: a connection table is read back without
 * sanitisation (as the ChEMBL pipeline works on its molecules) to learn implicit hydrogens,
 * chiral tags and substructure matches. Query molecules are compiled once per thread.
 */
import { AppError } from '../../errors.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import { writeV2000, type Molfile } from './molfile.ts';
import { isChiralTag, readMolJson } from '../core/commonchem.ts';

export const RAW_PARSE = JSON.stringify({ sanitize: false, removeHs: false });

/** Reads the table into RDKit without sanitising, runs `fn`, deletes the molecule. */
export function withRawMol<T>(rdkit: RDKit, m: Molfile, fn: (mol: Mol) => T): T {
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(writeV2000(m), RAW_PARSE);
  } catch {
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new AppError(422, 'The structure cannot be read back after a standardization step', 'invalid_input');
  }
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

export interface AtomView {
  z: number;
  charge: number;
  /** Hydrogens not present as atoms (explicit count plus implicit), RDKit's getTotalNumHs(). */
  hs: number;
  radicals: number;
  /** Tetrahedral tag set (from wedges): RDKit's CHI_TETRAHEDRAL_CW/CCW. */
  chiral: boolean;
}

export function atomViews(mol: Mol): AtomView[] {
  return readMolJson(mol).atoms.map((a) => ({
    z: a.z,
    charge: a.chg,
    hs: a.impHs,
    radicals: a.nRad,
    chiral: isChiralTag(a.stereo),
  }));
}

const queries = new Map<string, Mol>();

/** A compiled SMARTS, kept for the life of the thread (the pipeline uses a fixed set). */
export function query(rdkit: RDKit, smarts: string): Mol {
  let q = queries.get(smarts);
  if (!q) {
    const made = rdkit.get_qmol(smarts);
    if (!made || !made.is_valid()) {
      made?.delete();
      throw new Error(`invalid SMARTS in the standardizer tables: ${smarts}`);
    }
    q = made;
    queries.set(smarts, q);
  }
  return q;
}

/** Unique matches (atom indices in query order), as RDKit's GetSubstructMatches returns them. */
export function substructMatches(rdkit: RDKit, mol: Mol, smarts: string, maxMatches = 1000): number[][] {
  const text = mol.get_substruct_matches(query(rdkit, smarts), JSON.stringify({ maxMatches }));
  if (!text.startsWith('[')) return [];
  return (JSON.parse(text) as { atoms: number[] }[]).map((m) => m.atoms);
}
