/**
 * Format conversion on RDKit MinimalLib: canonical SMILES (Kekulé, as the original service's
 * rdkit toolkit answers), CXSMILES with 2D coordinates, InChI/InChIKey, SMARTS, molblocks with 2D
 * coordinates, and reading any supported notation back to SMILES.
 */
import { AppError } from '../../errors.ts';
import { detectFormat, withMol, type Mol, type RDKit } from '../core/rdkit.ts';

const KEKULE = JSON.stringify({ doKekule: true });

/** RDKit canonical isomeric SMILES in Kekulé form (`Chem.MolToSmiles(kekuleSmiles=True)`). */
export const canonicalKekule = (mol: Mol): string => mol.get_smiles(KEKULE);

/** 2D coordinates (RDKit's depictor) unless the input already has them. */
export function ensure2D(mol: Mol): void {
  if (!mol.has_coords()) mol.set_new_coords();
}

export function molblock2D(mol: Mol): string {
  ensure2D(mol);
  return mol.get_molblock();
}

export function cxsmiles(mol: Mol): string {
  ensure2D(mol);
  return mol.get_cxsmiles();
}

/** Standard InChI; an empty answer (no atoms) is `null`, as upstream. */
export function inchi(mol: Mol): string | null {
  const text = mol.get_inchi();
  return text ? text : null;
}

export function inchikey(rdkit: RDKit, mol: Mol): string | null {
  const text = mol.get_inchi();
  return text ? rdkit.get_inchikey_for_inchi(text) || null : null;
}

export function formats(rdkit: RDKit, mol: Mol) {
  return { mol: molblock2D(mol), canonicalsmiles: canonicalKekule(mol), inchi: inchi(mol), inchikey: inchikey(rdkit, mol) };
}

export type Representation = 'auto' | 'smiles' | 'cxsmiles' | 'molblock' | 'selfies';

/** SELFIES tokens that no SMILES contains; a string made only of bracket tokens with one is SELFIES. */
const SELFIES_ONLY = /\[(?:[=#/\\-]{0,2}(?:Branch|Ring)\d|nop|epsilon|[=#][A-Za-z]+)\]/;
const ONLY_BRACKETS = /^(?:\[[^\][]+\]|\.)+$/;

export function looksLikeSelfies(text: string): boolean {
  const t = text.trim();
  return ONLY_BRACKETS.test(t) && SELFIES_ONLY.test(t);
}

/**
 * Which reader a `generate_smiles` input needs. Unsupported notations (InChI, InChIKey, PDB,
 * IUPAC names are not read here) are a 422 that names what was recognised.
 */
export function resolveRepresentation(text: string, requested: Representation): Exclude<Representation, 'auto'> {
  if (requested !== 'auto') return requested;
  if (looksLikeSelfies(text)) return 'selfies';
  const f = detectFormat(text);
  if (typeof f === 'object') {
    throw new AppError(422, `Unsupported input format: ${f.unsupported}. Supported: SMILES, CXSMILES, V2000/V3000 molblock, SELFIES`, 'invalid_input');
  }
  return f === 'cxsmiles' ? 'cxsmiles' : f === 'smiles' ? 'smiles' : 'molblock';
}

/** Canonical isomeric SMILES of a structure given as SMILES, CXSMILES or molblock. */
export function toCanonicalSmiles(rdkit: RDKit, text: string, representation: Exclude<Representation, 'auto' | 'selfies'>): string {
  if (representation === 'molblock') {
    const f = detectFormat(text);
    if (f !== 'molblock-v2000' && f !== 'molblock-v3000') {
      throw new AppError(422, 'Error reading molblock, check again: expected a V2000 or V3000 molfile (with an M  END line)', 'invalid_input');
    }
  }
  const what = representation === 'molblock' ? 'molblock' : representation === 'cxsmiles' ? 'CXSMILES' : 'SMILES';
  return withMol(rdkit, text, (mol) => mol.get_smiles(), what);
}
