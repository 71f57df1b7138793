/**
 * Worker tasks for the natural-product analysis family: NP-likeness, descriptors, filters.
 * Data tables (NP model, SA fragment scores, QED parameters, PAINS SMARTS) are read once
 * per thread, on first use, from shared/chem/data (shared/chem/core/tables.ts).
 */
import { z } from 'zod';
import type { MediaResult, OpTasks } from './types.ts';
import { internalTask, internalTasks } from './task-args.ts';
import { rdkitAllDescriptors } from '../chem/descriptors/all.ts';
import type { descriptorsOps } from './descriptors.ts';
import { AppError } from '../errors.ts';
import { assertStructureSize, normaliseSmiles, withMol, type RDKit } from '../chem/core/rdkit.ts';
import { npLikeness } from '../chem/scores/nplikeness.ts';
import { pyRound } from '../chem/core/format.ts';
import { coconutDescriptors, type CoconutDescriptors, type DescriptorPlugins } from '../chem/descriptors/descriptors.ts';
import { descriptorsHtml } from '../chem/descriptors/html.ts';
import { murckoFramework } from '../chem/descriptors/murcko.ts';
import { coconutSugarFlags } from '../chem/sugars/sugars.ts';
import { isPlainSmiles, MolView } from '../chem/core/mol-view.ts';
import { descriptorTables, npModel, painsEntries, qedData, saTable } from '../chem/core/tables.ts';
import { filterFlags, formatLine, keep, parseRange, type FilterOptions, type Range } from '../chem/filters/filters.ts';
import { detailedFilters, type MoleculeFilters } from '../chem/filters/detailed.ts';

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

/** The non-empty lines of a filter call's body, at most MAX_FILTER_MOLECULES. */
function filterLines(args: FilterArgs): string[] {
  const lines = (Array.isArray(args.smiles) ? args.smiles : args.smiles.split(/\r?\n/))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (lines.length > MAX_FILTER_MOLECULES) {
    throw new AppError(422, `At most ${MAX_FILTER_MOLECULES} molecules per request (got ${lines.length})`, 'invalid_input');
  }
  return lines;
}

function filterOptions(args: FilterArgs): FilterOptions {
  return {
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
}

type DetailedResult =
  | { smiles: string; valid: true; filters: MoleculeFilters; overall_pass: boolean; filter_passes: boolean[] }
  | { smiles: string; valid: false; error: string; filters: Record<string, never> };

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

  generate_descriptors(args: { smiles: string; format: 'json' | 'html'; toolkit: 'rdkit' | 'cdk' | 'all' }, { rdkit }) {
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
    const lines = filterLines(args);
    const opts = filterOptions(args);
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
  filter_molecules_detailed(args: FilterArgs, { rdkit, signal, progress }) {
    const lines = filterLines(args);
    const opts = filterOptions(args);
    const tables = { pains: painsEntries(), qed: qedData(), np: npModel(), sa: saTable() };
    const results: DetailedResult[] = [];
    lines.forEach((smiles, i) => {
      signal.throwIfAborted();
      // Too large is the request's problem (422 naming the bound); unreadable is this line's.
      assertStructureSize(normaliseSmiles(smiles));
      let filters: MoleculeFilters;
      try {
        filters = withMol(rdkit, smiles, (mol) => detailedFilters(rdkit, mol, opts, tables));
      } catch (e) {
        if (!(e instanceof AppError) || e.status !== 422) throw e;
        results.push({ smiles, valid: false, error: 'Invalid SMILES string', filters: {} });
        return;
      }
      const passes = Object.values(filters).map((f: { passes: boolean }) => f.passes);
      const overall = passes.length > 0 && (args.filterOperator === 'AND' ? passes.every(Boolean) : passes.some(Boolean));
      results.push({ smiles, valid: true, filters, overall_pass: overall, filter_passes: passes });
      if (i % 50 === 49) progress(Math.round(((i + 1) * 100) / lines.length));
    });
    // As the original: passing molecules and unreadable lines; the count is of every line.
    const passing = results.filter((r) => !r.valid || r.overall_pass);
    return { total_molecules: results.length, passing_molecules: passing.length, filter_operator: args.filterOperator, results: passing };
  },
} satisfies OpTasks<typeof descriptorsOps>;

/** Tasks the toolkit routes call: the RDKit column of toolkit=all (shared/toolkits/routes.ts, allDescriptors). */
export const descriptorsInternalTasks = internalTasks({
  rdkit_all_descriptors: internalTask(z.object({ smiles: z.string().min(1).max(100_000) }), (a, { rdkit }) => {
    const plain = !a.smiles.includes('\n') && isPlainSmiles(normaliseSmiles(a.smiles));
    return withMol(rdkit, a.smiles, (mol) => rdkitAllDescriptors(rdkit, mol, descriptorTables(), new MolView(rdkit, mol, plain)));
  }),
});
