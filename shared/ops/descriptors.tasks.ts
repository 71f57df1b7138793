/**
 * Worker tasks for the natural-product analysis family: NP-likeness, descriptors, filters.
 * Data tables (NP model, SA fragment scores, QED parameters, PAINS SMARTS) are read once
 * per thread, on first use, from shared/chem/data (shared/chem/core/tables.ts).
 */
import type { MediaResult, OpTasks } from './types.ts';
import type { descriptorsOps } from './descriptors.ts';
import { AppError } from '../errors.ts';
import { normaliseSmiles, withMol, type RDKit } from '../chem/core/rdkit.ts';
import { npLikeness } from '../chem/scores/nplikeness.ts';
import { pyRound } from '../chem/core/format.ts';
import { coconutDescriptors, type CoconutDescriptors, type DescriptorPlugins } from '../chem/descriptors/descriptors.ts';
import { descriptorsHtml } from '../chem/descriptors/html.ts';
import { murckoFramework } from '../chem/descriptors/murcko.ts';
import { coconutSugarFlags } from '../chem/sugars/sugars.ts';
import { isPlainSmiles, MolView } from '../chem/core/mol-view.ts';
import { descriptorTables, npModel, painsEntries, qedData, saTable } from '../chem/core/tables.ts';
import { filterFlags, formatLine, keep, parseRange, type FilterOptions, type Range } from '../chem/filters/filters.ts';

export { npModel, painsEntries, qedData, saTable } from '../chem/core/tables.ts';

/** Most molecules one all_filters call evaluates (each costs up to ~50 ms). */
export const MAX_FILTER_MOLECULES = 1000;

interface FilterArgs {
  smiles: string | string[];
  pains: boolean;
  lipinski: boolean;
  veber: boolean;
  reos: boolean;
  ghose: boolean;
  ruleofthree: boolean;
  qedscore: string;
  sascore: string;
  nplikeness: string;
  filterOperator: 'AND' | 'OR';
}

function range(name: string, text: string): Range | undefined {
  if (text.trim() === '') return undefined;
  const r = parseRange(text);
  if (!r) throw new AppError(422, `${name} must be a range "min-max", e.g. "0-10" or "-5-5": ${text}`, 'invalid_input');
  return r;
}

const plugins: DescriptorPlugins = {
  murcko: murckoFramework,
  // The Sugar Removal Utility with its default settings (also the catalog's sugar flags), on
  // the molecule already parsed rather than a second parse of the SMILES.
  sugars: coconutSugarFlags,
};

/** The COCONUT descriptor set (RDKit definitions) of one SMILES; also used by collection pre-processing. */
export function describe(rdkit: RDKit, smiles: string): CoconutDescriptors {
  // The same text parseMol reads; a molblock is never "plain" (its JSON may lack what it carries).
  const plain = typeof smiles === 'string' && !smiles.includes('\n') && isPlainSmiles(normaliseSmiles(smiles));
  const tables = descriptorTables();
  return withMol(rdkit, smiles, (mol) => coconutDescriptors(rdkit, mol, tables, plugins, new MolView(rdkit, mol, plain)));
}

/** toolkit=cdk is answered by the CDK sidecar (shared/toolkits), never silently by RDKit. */
function rdkitOnly(toolkit: string): void {
  if (toolkit !== 'rdkit') throw new AppError(503, `toolkit=${toolkit} is not served by this process (no toolkit sidecars attached to its pool)`, 'toolkit_failed');
}

export const descriptorsTasks = {
  generate_nplikeness_score(args: { smiles: string }, { rdkit }) {
    return withMol(rdkit, args.smiles, (mol) => pyRound(npLikeness(rdkit, mol, npModel()).score, 2));
  },

  generate_descriptors(args: { smiles: string; format: 'json' | 'html'; toolkit: 'rdkit' | 'cdk' }, { rdkit }) {
    rdkitOnly(args.toolkit);
    const values = describe(rdkit, args.smiles);
    if (args.format === 'html') return { mediaType: 'text/html', body: descriptorsHtml(values) } satisfies MediaResult;
    return values;
  },

  generate_multiple_descriptors(args: { smiles: string; toolkit: 'rdkit' | 'cdk' }, { rdkit }) {
    rdkitOnly(args.toolkit);
    const items = args.smiles
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (items.length < 2) throw new AppError(422, 'At least two molecules are required.', 'invalid_input');
    const out: Record<string, CoconutDescriptors> = {};
    for (const item of items) out[item] ??= describe(rdkit, item);
    return out;
  },

  filter_molecules(args: FilterArgs, { rdkit, signal, progress }) {
    const lines = (Array.isArray(args.smiles) ? args.smiles : args.smiles.split(/\r?\n/))
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (lines.length > MAX_FILTER_MOLECULES) {
      throw new AppError(422, `At most ${MAX_FILTER_MOLECULES} molecules per request (got ${lines.length})`, 'invalid_input');
    }
    const opts: FilterOptions = {
      pains: args.pains,
      lipinski: args.lipinski,
      veber: args.veber,
      reos: args.reos,
      ghose: args.ghose,
      ruleofthree: args.ruleofthree,
      qed: range('qedscore', args.qedscore),
      sa: range('sascore', args.sascore),
      np: range('nplikeness', args.nplikeness),
    };
    const tables = { pains: painsEntries(), qed: qedData(), np: npModel(), sa: saTable() };
    const out: string[] = [];
    lines.forEach((smiles, i) => {
      signal.throwIfAborted();
      const flags = withMol(rdkit, smiles, (mol) => filterFlags(rdkit, mol, opts, tables));
      if (keep(flags, args.filterOperator)) out.push(formatLine(smiles, flags));
      if (i % 50 === 49) progress(Math.round(((i + 1) * 100) / lines.length));
    });
    return out;
  },
} satisfies OpTasks<typeof descriptorsOps>;
