/**
 * The identifiers and flags derived from one structure, shared by collection pre-processing
 * (for each of the original, standardized and parent structures) and by the catalog's
 * derive_molecule, so both compute them the same way: standard InChI and InChIKey, RDKit
 * canonical SMILES (aromatic and Kekulé), the Bemis-Murcko framework and the stereo flags.
 */
import { AppError } from '../../errors.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import { murckoFramework } from '../descriptors/murcko.ts';
import { enumerateStereoisomers } from '../stereo/stereoisomers.ts';
import { isChiralTag, isConfiguredBond, readMolJson, type MolJson } from '../core/commonchem.ts';
import type { MolView } from '../core/mol-view.ts';

export interface StereoFlags {
  /** Some atom has a tetrahedral configuration. */
  definedCentre: boolean;
  /** Some atom or double bond has a configuration. */
  defined: boolean;
}

export interface StructureRecord {
  /** RDKit canonical isomeric SMILES (aromatic). */
  smiles: string;
  /** RDKit canonical isomeric SMILES in Kekulé form ('' when RecordOptions.kekule is false). */
  kekuleSmiles: string;
  /** Standard InChI and InChIKey; null when InChI cannot represent the structure. */
  inchi: string | null;
  inchikey: string | null;
  /** Bemis-Murcko framework SMILES, "None" for an acyclic structure. */
  murcko: string;
  stereo: StereoFlags;
}

function safeInchi(mol: Mol, options?: string): string {
  try {
    const text = options ? mol.get_inchi(options) : mol.get_inchi();
    return text.startsWith('InChI=') ? text : '';
  } catch {
    return '';
  }
}

/** Which configurations the molecule states (`m`: its parsed JSON when the caller has it). */
export function stereoFlags(mol: Mol, m: MolJson = readMolJson(mol)): StereoFlags {
  const definedCentre = m.atoms.some((a) => isChiralTag(a.stereo));
  const definedBond = m.bonds.some((b) => isConfiguredBond(b.stereo));
  return { definedCentre, defined: definedCentre || definedBond };
}

/**
 * Whether any atom or double bond could carry a configuration, set or not: the configured ones
 * plus the unassigned centres and double bonds the stereoisomer enumerator would vary (asked for
 * no isomers, it only perceives them). Close to RDKit's FindPotentialStereo, which the original
 * service used.
 */
export function potentialStereo(rdkit: RDKit, mol: Mol, flags: StereoFlags = stereoFlags(mol)): boolean {
  return flags.defined || enumerateStereoisomers(rdkit, mol.get_smiles(), 0).elements > 0;
}

/** What a caller of structureRecord leaves out or fixes (the catalog's derivation). */
export interface RecordOptions {
  /** false: no Kekulé SMILES (`kekuleSmiles` is ''), for a caller that stores none. */
  kekule?: boolean;
  /** The framework as the molblock route answers it (murckoFramework's `molblockRouteAnswers`). */
  molblockRouteMurcko?: boolean;
}

/** @param view the molecule's view when the caller has one (its parsed JSON is reused). */
export function structureRecord(rdkit: RDKit, mol: Mol, view?: MolView, options: RecordOptions = {}): StructureRecord {
  const inchi = safeInchi(mol);
  let inchikey: string | null = null;
  if (inchi) {
    const key = rdkit.get_inchikey_for_inchi(inchi);
    inchikey = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(key) ? key : null;
  }
  return {
    smiles: mol.get_smiles(),
    kekuleSmiles: options.kekule === false ? '' : mol.get_smiles(JSON.stringify({ doKekule: true })),
    inchi: inchi || null,
    inchikey,
    murcko: murckoFramework(rdkit, mol, view, options.molblockRouteMurcko),
    stereo: stereoFlags(mol, view?.json),
  };
}

/** The record's InChI and key, or a 422 naming the structure when InChI cannot represent it. */
export function requireInchi(record: StructureRecord): { inchi: string; inchikey: string } {
  if (!record.inchi) {
    throw new AppError(422, `No standard InChI can be computed for this structure: ${record.smiles}`, 'invalid_input');
  }
  if (!record.inchikey) {
    throw new AppError(422, `No InChIKey can be computed for this structure: ${record.smiles}`, 'invalid_input');
  }
  return { inchi: record.inchi, inchikey: record.inchikey };
}

/**
 * Reads a molblock the way RDKit's MolFromMolBlock does (sanitised, explicit hydrogens folded
 * into their atoms; MinimalLib would keep them), runs `fn`, deletes the molecule.
 */
export function withMolblock<T>(rdkit: RDKit, molblock: string, fn: (mol: Mol) => T): T {
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(molblock, JSON.stringify({ removeHs: true }));
  } catch {
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new AppError(422, 'Error reading molblock, check again: RDKit cannot read the structure', 'invalid_input');
  }
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}
