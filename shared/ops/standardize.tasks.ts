/**
 * Worker tasks of the ChEMBL pipeline family: standardize_molblock, check_errors and
 * generate_collection_preprocessing. The pipeline's rule tables (shared/chem/data/chembl-*.json)
 * are read once per thread, on first use.
 */
import { readFileSync } from 'node:fs';
import type { OpTasks } from './types.ts';
import type { standardizeOps } from './standardize.ts';
import { AppError } from '../errors.ts';
import { assertStructureSize, normaliseSmiles, withMol, type Mol, type RDKit } from '../chem/core/rdkit.ts';
import { chemblTables, standardizeMolblock, type ChemblTables } from '../chem/standardize/standardize.ts';
import { splitSdRecord } from '../chem/standardize/sdf.ts';
import { checkMolblock, type Issue } from '../chem/standardize/checker.ts';
import { collectionPreprocessing } from '../chem/standardize/preprocess.ts';
import { requireInchi, structureRecord, withMolblock } from '../chem/standardize/preprocess-record.ts';
import { describe as coconutDescriptorSet } from './descriptors.tasks.ts';
import { fixRadicals } from '../chem/standardize/radicals.ts';

const dataFile = (name: string) => new URL(`../chem/data/${name}`, import.meta.url);
const readJson = (name: string) => JSON.parse(readFileSync(dataFile(name), 'utf8'));

let tablesCache: ChemblTables | undefined;
export function pipelineTables(): ChemblTables {
  tablesCache ??= chemblTables(readJson('chembl-normalizations.json'), readJson('chembl-salts.json'), readJson('chembl-solvents.json'));
  return tablesCache;
}

function tryParse(rdkit: RDKit, text: string, details: string): Mol | undefined {
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(text, details);
  } catch {
    mol = null;
  }
  // A blank SMILES or an empty atom block parses to a molecule without atoms, which the
  // checker's and the standardizer's RDKit calls (get_json) cannot take: unreadable too.
  if (mol?.is_valid() && mol.get_num_atoms() > 0) return mol;
  mol?.delete();
  return undefined;
}

/**
 * The molblock the pipeline is given: RDKit's rewrite of the record, as the original service
 * reads the body with an SD supplier (sanitised, hydrogens removed). A record RDKit cannot
 * sanitise (a pentavalent nitro group, say) is passed on as drawn, since fixing such drawings is
 * what the standardizer is for.
 */
function pipelineInput(rdkit: RDKit, molblock: string): string {
  const mol = tryParse(rdkit, molblock, JSON.stringify({ removeHs: true })) ??
    tryParse(rdkit, molblock, JSON.stringify({ sanitize: false, removeHs: false }));
  if (!mol) throw new AppError(422, 'Error reading molblock, check again: RDKit cannot read the connection table', 'invalid_input');
  try {
    return mol.get_molblock();
  } catch {
    throw new AppError(422, 'Error reading molblock, check again: its aromatic bonds cannot be kekulized', 'invalid_input');
  } finally {
    mol.delete();
  }
}

type Messages = Issue[] | ['No Errors Found'];
const messages = (issues: Issue[]): Messages => (issues.length ? issues : ['No Errors Found']);

export const standardizeTasks = {
  standardize_molblock(args: { molblock: string }, { rdkit }) {
    const { molblock, fields } = splitSdRecord(args.molblock);
    assertStructureSize(molblock);
    const standardized = standardizeMolblock(rdkit, pipelineInput(rdkit, molblock), pipelineTables());
    const result = withMolblock(rdkit, standardized, (mol) => {
      const record = structureRecord(rdkit, mol);
      const { inchi, inchikey } = requireInchi(record);
      return { standardized_mol: standardized, canonical_smiles: record.kekuleSmiles, inchi, inchikey };
    });
    // SD fields come along after the computed values, without overwriting them.
    const out: Record<string, unknown> = { ...result };
    for (const [name, value] of Object.entries(fields)) if (!(name in out)) out[name] = value;
    return out;
  },

  check_errors(args: { smiles: string; fix: boolean }, { rdkit }) {
    assertStructureSize(args.smiles);
    const drawn = tryParse(rdkit, normaliseSmiles(args.smiles), JSON.stringify({ sanitize: false }));
    if (!drawn) throw new AppError(422, `Error reading SMILES string, please check again: ${args.smiles}`, 'invalid_input');
    let molblock: string;
    try {
      molblock = drawn.get_molblock();
    } catch {
      throw new AppError(422, `Error reading SMILES string, please check again (aromatic system cannot be kekulized): ${args.smiles}`, 'invalid_input');
    } finally {
      drawn.delete();
    }
    const issues = checkMolblock(rdkit, molblock);
    if (!issues.length || !args.fix) return { smi: args.smiles, messages: messages(issues) };
    const standardized = standardizeMolblock(rdkit, molblock, pipelineTables());
    const smi = withMolblock(rdkit, standardized, (mol) => mol.get_smiles());
    return {
      original: { smi: args.smiles, messages: issues },
      standardized: { smi, messages: messages(checkMolblock(rdkit, standardized)) },
    };
  },

  generate_collection_preprocessing(args: { smiles: string; _3d_mol: boolean; descriptors: boolean }, { rdkit, signal }) {
    const smiles = normaliseSmiles(args.smiles).replaceAll('\\\\', '\\');
    assertStructureSize(smiles);
    return collectionPreprocessing(rdkit, smiles, pipelineTables(), {
      threeD: args._3d_mol,
      describe: args.descriptors ? (s) => coconutDescriptorSet(rdkit, s) : undefined,
      signal,
    });
  },

  fix_radicals(args: { smiles: string }, { rdkit }) {
    return withMol(rdkit, args.smiles, (mol) => fixRadicals(rdkit, mol));
  },
} satisfies OpTasks<typeof standardizeOps>;
