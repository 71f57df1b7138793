/**
 * Collection pre-processing (docs/spec/chem-service.md §2.1 (9)): the submitted structure, its
 * ChEMBL-standardized form and its ChEMBL parent, each with a 2D molblock, InChI, InChIKey,
 * canonical SMILES and Murcko framework (preprocess-record.ts); original and standardized also
 * with stereo flags and ChEMBL checker issues; optionally 3D molblocks and the COCONUT
 * descriptor set.
 *
 * As upstream: the original canonical SMILES is isomeric Kekulé, the parent is the
 * non-isomeric Kekulé SMILES of the ChEMBL parent of the standardized structure and its
 * identifiers describe that flat structure. Unlike upstream, the standardized record carries the
 * standardized molblock (upstream repeated the original one), and all molblocks are RDKit's
 * (upstream drew the original and the parent with CDK), checked to read back as the structure
 * they stand for (preprocess-molblock.ts).
 */
import { AppError } from '../../errors.ts';
import type { RDKit, Mol } from '../core/rdkit.ts';
import { withMol } from '../core/rdkit.ts';
import { checkMolblock, type Issue } from './checker.ts';
import { generate3D } from '../convert/conformer.ts';
import { standardizeMolblock, type ChemblTables } from './standardize.ts';
import { parentMolblock } from './parent.ts';
import { parseV2000, writeV2000 } from './molfile.ts';
import { potentialStereo, structureRecord, withMolblock } from './preprocess-record.ts';
import { faithfulMolblock } from './preprocess-molblock.ts';

export const NOT_COMPUTED = 'Not computed, enable for computing';

export interface PreprocessOptions {
  threeD: boolean;
  /** The COCONUT descriptor set of a SMILES; only called when descriptors are requested. */
  describe?: (smiles: string) => Record<string, unknown>;
  signal?: AbortSignal;
}

export interface Representations {
  '2D_MOL': string;
  '3D_MOL': string;
  canonical_smiles: string;
  standard_inchi: string | null;
  standard_inchikey: string | null;
  Murcko_framework: string;
}

export interface PreprocessRecord {
  representations: Representations;
  has_stereo?: boolean;
  has_stereo_defined?: boolean;
  descriptors: Record<string, unknown>;
  errors?: Issue[];
}

export interface Preprocessed {
  original: PreprocessRecord;
  standardized: PreprocessRecord;
  parent: PreprocessRecord;
}

const KEKULE = JSON.stringify({ doKekule: true });
const FLAT_KEKULE = JSON.stringify({ doKekule: true, doIsomericSmiles: false });

/** A molblock with atom-map numbers cleared (upstream clears them before anything else). */
function withoutMaps(molblock: string): string {
  if (/V3000/.test(molblock)) return molblock;
  const table = parseV2000(molblock);
  if (!table.atoms.some((a) => a.map)) return molblock;
  for (const a of table.atoms) a.map = 0;
  return writeV2000(table);
}

/** 3D molblock with hydrogens; a failure inside the conformer generator is a 422 naming the structure. */
function threeD(rdkit: RDKit, smiles: string, signal?: AbortSignal): string {
  try {
    return generate3D(rdkit, smiles, { hydrogens: true, signal });
  } catch (e) {
    if (e instanceof AppError || signal?.aborted) throw e;
    throw new AppError(422, `No 3D structure can be generated for: ${smiles}`, 'invalid_input');
  }
}

function record(
  rdkit: RDKit,
  mol: Mol,
  molblock: string,
  canonicalSmiles: string,
  opts: PreprocessOptions,
  withChecks: boolean,
): PreprocessRecord {
  const r = structureRecord(rdkit, mol);
  opts.signal?.throwIfAborted();
  const out: PreprocessRecord = {
    representations: {
      '2D_MOL': molblock,
      '3D_MOL': opts.threeD ? threeD(rdkit, canonicalSmiles, opts.signal) : NOT_COMPUTED,
      canonical_smiles: canonicalSmiles,
      standard_inchi: r.inchi,
      standard_inchikey: r.inchikey,
      Murcko_framework: r.murcko,
    },
    descriptors: opts.describe ? opts.describe(canonicalSmiles) : { descriptors: NOT_COMPUTED },
  };
  if (withChecks) {
    out.has_stereo = potentialStereo(rdkit, mol, r.stereo);
    out.has_stereo_defined = r.stereo.definedCentre;
    out.errors = checkMolblock(rdkit, molblock);
  }
  return out;
}

export function collectionPreprocessing(rdkit: RDKit, smiles: string, tables: ChemblTables, opts: PreprocessOptions): Preprocessed {
  const originalBlock = withoutMaps(withMol(rdkit, smiles, (mol) => faithfulMolblock(rdkit, mol)));
  const original = withMolblock(rdkit, originalBlock, (mol) =>
    record(rdkit, mol, originalBlock, mol.get_smiles(KEKULE), opts, true));

  const standardizedBlock = standardizeMolblock(rdkit, originalBlock, tables);
  const standardized = withMolblock(rdkit, standardizedBlock, (mol) =>
    record(rdkit, mol, standardizedBlock, mol.get_smiles(KEKULE), opts, true));

  const parentSmiles = withMolblock(rdkit, parentMolblock(rdkit, standardizedBlock, tables).molblock, (mol) =>
    mol.get_smiles(FLAT_KEKULE));
  // Read back from the flat SMILES so that the parent's identifiers describe the flat structure.
  const parent = withMol(rdkit, parentSmiles, (mol) => record(rdkit, mol, faithfulMolblock(rdkit, mol), mol.get_smiles(FLAT_KEKULE), opts, false));
  return { original, standardized, parent };
}
