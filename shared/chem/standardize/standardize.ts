/**
 * The ChEMBL Structure Pipeline standardizer (Bento et al., J Cheminform 2020, 12:51;
 * chembl/ChEMBL_Structure_Pipeline, standardizer.standardize_molblock), ported to MinimalLib:
 *  1. a structure matching the exclusion rule (a metal of the pipeline's list, or more than
 *     seven borons) is returned untouched;
 *  2. S-groups go, the structure is kekulised and explicit hydrogens are removed
 *     (standardize-hydrogens.ts);
 *  3. functional groups are normalised (standardize-normalize.ts, rules in data/chembl-normalizations.json);
 *  4. charges are neutralised where hydrogens allow it (standardize-uncharge.ts);
 *  5. acyclic triple bonds and allenes are straightened in the drawing (standardize-drawing.ts).
 * The pipeline's tartrate step (clearing the chiral tags of free tartaric acid) is not ported:
 * it leaves the wedges in place, so the molblock the pipeline writes still carries the
 * configuration and its effect never reaches the output.
 *
 * Deliberate difference: a genuinely 3D molblock is standardized without the drawing step, where
 * the pipeline raises an error.
 */
import { AppError } from '../../errors.ts';
import type { RDKit } from '../core/rdkit.ts';
import { cleanupDrawing } from './drawing.ts';
import { removeHydrogens } from './hydrogens.ts';
import { parseV2000, type Molfile } from './molfile.ts';
import { normalize, type NormalizationTable } from './normalize.ts';
import { RAW_PARSE, withRawMol } from './rdkit.ts';
import { parseRule } from './smirks.ts';
import { uncharge } from './uncharge.ts';

/** The data tables of the pipeline (shared/chem/data/chembl-*.json). */
export interface ChemblTables {
  normalization: NormalizationTable;
  /** [name, SMARTS] in file order. */
  salts: [string, string][];
  solvents: [string, string][];
}

interface NormalizationFile {
  alkoxide: { smarts: string };
  rules: { name: string; smirks: string }[];
}
interface FragmentFile {
  entries: { name: string; smarts: string }[];
}

export function chemblTables(normalizations: NormalizationFile, salts: FragmentFile, solvents: FragmentFile): ChemblTables {
  return {
    normalization: {
      alkoxideSmarts: normalizations.alkoxide.smarts,
      rules: normalizations.rules.map((r) => parseRule(r.name, r.smirks)),
    },
    salts: salts.entries.map((e) => [e.name, e.smarts]),
    solvents: solvents.entries.map((e) => [e.name, e.smarts]),
  };
}

/**
 * Metals whose compounds the pipeline leaves alone (exclude_flag.METAL_LIST; zinc is
 * deliberately absent, ChEMBL has many simple zinc salts).
 */
const EXCLUDED_METALS = new Set(
  ('Sc Ti V Cr Mn Fe Co Ni Cu Ga Y Zr Nb Mo Tc Ru Rh Pd Cd In Sn La Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po Ac ' +
    'Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Ge Sb').split(' '),
);

export function excluded(m: Molfile): boolean {
  if (m.atoms.some((a) => EXCLUDED_METALS.has(a.symbol))) return true;
  return m.atoms.filter((a) => a.symbol === 'B').length > 7;
}

/**
 * Reads a molblock (V2000 or V3000) without sanitising and writes it back as kekulised V2000,
 * the form the steps edit. Wedges, coordinates and atom order survive; RDKit fails here on
 * aromatic bonds it cannot kekulise, as the pipeline's kekulisation does.
 */
export function workingTable(rdkit: RDKit, ctab: string): Molfile {
  let mol = null;
  try {
    mol = rdkit.get_mol(ctab, RAW_PARSE);
  } catch {
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new AppError(422, 'Error reading molblock, check again: the connection table cannot be parsed', 'invalid_input');
  }
  try {
    let v2000: string;
    try {
      v2000 = mol.get_v2Kmolblock();
    } catch {
      throw new AppError(422, 'The molblock cannot be kekulized (or is too large for a V2000 connection table)', 'invalid_input');
    }
    return parseV2000(v2000);
  } finally {
    mol.delete();
  }
}

/** The structure after steps 2-5, as a connection table. */
export function standardizeTable(rdkit: RDKit, input: Molfile, tables: ChemblTables): Molfile {
  let m = removeHydrogens(rdkit, input);
  m = normalize(rdkit, m, tables.normalization);
  m = uncharge(rdkit, m);
  cleanupDrawing(m);
  return m;
}

/** The molblock RDKit writes for a table (kekulised, wedges from the configuration it perceives). */
export function writeMolblock(rdkit: RDKit, m: Molfile, kekulize = true): string {
  return withRawMol(rdkit, m, (mol) => mol.get_molblock(JSON.stringify({ kekulize })));
}

/** standardize_molblock: the standardized molblock, or the input itself for an excluded structure. */
export function standardizeMolblock(rdkit: RDKit, ctab: string, tables: ChemblTables): string {
  const input = workingTable(rdkit, ctab);
  if (excluded(input)) return ctab;
  return writeMolblock(rdkit, standardizeTable(rdkit, input, tables));
}
