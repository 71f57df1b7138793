/**
 * The ChEMBL parent structure (standardizer.get_parent_molblock): isotopes cleared, hydrogens
 * removed as in standardization, then solvents and salts stripped fragment by fragment with the
 * pipeline's lists (data/chembl-solvents.json, data/chembl-salts.json), then neutralised:
 *  - a fragment is a solvent/salt when it has exactly the pattern's heavy-atom and bond counts
 *    and matches it (so a pattern never strips part of a larger fragment);
 *  - solvents go first; if nothing but solvents is left, the whole input is the parent;
 *  - then salts; if nothing but salts is left, all remaining fragments are kept;
 *  - remaining fragments that are copies of one structure collapse to one;
 *  - a parent still matching the exclusion rule (metals) falls back to the solvent-free input.
 */
import { AppError } from '../../errors.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import { excluded, writeMolblock, workingTable, type ChemblTables } from './standardize.ts';
import { removeHydrogens } from './hydrogens.ts';
import { combineMolfiles, fragments, subMolfile, writeV2000, type Molfile } from './molfile.ts';
import { query, RAW_PARSE } from './rdkit.ts';
import { uncharge } from './uncharge.ts';

export interface ParentResult {
  molblock: string;
  /** The exclusion rule matched the parent (the pipeline's second return value). */
  exclude: boolean;
}

/** RDKit's view of a fragment for matching: hydrogens removed and aromaticity perceived where possible. */
function withFragmentMol<T>(rdkit: RDKit, m: Molfile, fn: (mol: Mol) => T): T {
  const text = writeV2000(m);
  let mol: Mol | null = null;
  for (const details of [JSON.stringify({ removeHs: true }), RAW_PARSE]) {
    try {
      mol = rdkit.get_mol(text, details);
    } catch {
      mol = null;
    }
    if (mol?.is_valid()) break;
    mol?.delete();
    mol = null;
  }
  if (!mol) throw new AppError(422, 'A fragment of the structure cannot be read', 'invalid_input');
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

function isListed(rdkit: RDKit, mol: Mol, smarts: string): boolean {
  const q = query(rdkit, smarts);
  if (mol.get_num_atoms() !== q.get_num_atoms() || mol.get_num_bonds() !== q.get_num_bonds()) return false;
  return mol.get_substruct_match(q) !== '{}';
}

/** Keeps the fragments that match none of the patterns, scanning the list in order as the pipeline does. */
function strip(rdkit: RDKit, frags: Molfile[], list: [string, string][]): boolean[] {
  const keep = frags.map(() => true);
  withMols(rdkit, frags, (mols) => {
    for (const [, smarts] of list) {
      mols.forEach((mol, i) => {
        if (keep[i] && isListed(rdkit, mol, smarts)) keep[i] = false;
      });
      if (!keep.some(Boolean)) break;
    }
  });
  return keep;
}

function withMols<T>(rdkit: RDKit, frags: Molfile[], fn: (mols: Mol[]) => T): T {
  const mols: Mol[] = [];
  try {
    for (const f of frags) mols.push(withFragmentMol(rdkit, f, (mol) => rdkit.get_mol_copy(mol)!));
    return fn(mols);
  } finally {
    for (const mol of mols) mol.delete();
  }
}

function smilesOf(rdkit: RDKit, m: Molfile): string {
  return withFragmentMol(rdkit, m, (mol) => mol.get_smiles());
}

export function parentTable(rdkit: RDKit, input: Molfile, tables: ChemblTables, neutralize = true, checkExclusion = true): { table: Molfile; exclude: boolean } {
  const isotopeFree: Molfile = { ...input, atoms: input.atoms.map((a) => ({ ...a, isotope: 0 })) };
  const m = removeHydrogens(rdkit, isotopeFree);
  const finish = (t: Molfile, exclude: boolean) => ({ table: neutralize ? uncharge(rdkit, t) : t, exclude });

  const all = fragments(m).map((atoms) => subMolfile(m, atoms));
  const notSolvent = strip(rdkit, all, tables.solvents);
  if (!notSolvent.some(Boolean)) return finish(m, checkExclusion && excluded(m));
  const frags = all.filter((_, i) => notSolvent[i]);

  let keep = strip(rdkit, frags, tables.salts);
  if (!keep.some(Boolean)) keep = frags.map(() => true);
  const kept = frags.filter((_, i) => keep[i]);
  const distinct = new Set(kept.map((f) => smilesOf(rdkit, neutralize ? uncharge(rdkit, f) : f)));
  let parent = distinct.size === 1 ? kept[0] : combineMolfiles(kept);
  const exclude = checkExclusion && excluded(parent);
  if (exclude) parent = combineMolfiles(frags);
  return finish(parent, exclude);
}

/** get_parent_molblock: the parent as a molblock (aromatic bonds kept as RDKit perceives them). */
export function parentMolblock(rdkit: RDKit, ctab: string, tables: ChemblTables, neutralize = true, checkExclusion = true): ParentResult {
  const { table, exclude } = parentTable(rdkit, workingTable(rdkit, ctab), tables, neutralize, checkExclusion);
  return { molblock: writeMolblock(rdkit, table, false), exclude };
}
