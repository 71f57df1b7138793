/** Worker tasks of the Sugar Removal Utility family; see sugars.ts for the registry entries. */
import { AppError } from '../errors.ts';
import {
  detectSugars, removeSugars, sugarInfoMessage, type PreservationMode, type SugarKind, type SugarOptions,
} from '../chem/sugars/sugars.ts';
import type { OpTasks, TaskContext } from './types.ts';
import { withMol, type Mol } from '../chem/core/rdkit.ts';
import { extractionIndices, extractionSmiles, type Extraction } from '../chem/sugars/extract.ts';
import type { sugarsOps } from './sugars.ts';

interface Args {
  smiles: string;
  extract_circular_sugars?: boolean;
  extract_linear_sugars?: boolean;
  post_process_sugars?: boolean;
  limit_post_process_by_size?: boolean;
  gly_bond?: boolean;
  oxygen_atoms?: boolean;
  oxygen_atoms_threshold?: number;
  spiro_sugars?: boolean;
  keto_sugars?: boolean;
  linear_sugars_in_rings?: boolean;
  linear_sugars_min_size?: number;
  linear_sugars_max_size?: number;
  linear_acidic_sugars?: boolean;
  only_terminal?: boolean;
  preservation_mode?: number;
  preservation_threshold?: number;
  mark_attach_points?: boolean;
}

const MODES: Record<number, PreservationMode> = { 1: 'all', 2: 'heavy-atom-count', 3: 'molecular-weight' };

function options(a: Args): Partial<SugarOptions> {
  if (a.linear_sugars_min_size !== undefined && a.linear_sugars_max_size !== undefined
    && a.linear_sugars_min_size > a.linear_sugars_max_size) {
    throw new AppError(422, 'linear_sugars_min_size must not exceed linear_sugars_max_size', 'invalid_input');
  }
  return {
    glycosidicBond: a.gly_bond,
    oxygenAtoms: a.oxygen_atoms,
    oxygenAtomsThreshold: a.oxygen_atoms_threshold,
    spiroSugars: a.spiro_sugars,
    ketoSugars: a.keto_sugars,
    linearSugarsInRings: a.linear_sugars_in_rings,
    linearMinSize: a.linear_sugars_min_size,
    linearMaxSize: a.linear_sugars_max_size,
    linearAcidicSugars: a.linear_acidic_sugars,
    onlyTerminal: a.only_terminal,
    preservationMode: a.preservation_mode === undefined ? undefined : MODES[a.preservation_mode],
    preservationThreshold: a.preservation_threshold,
    markAttachPoints: a.mark_attach_points,
  };
}

/**
 * What the three removal routes answer when nothing would be left. Still a 422 as in the original
 * service, whose three details ("422: Error reading SMILES string, please check again." and two
 * variants) blamed a SMILES that had been read perfectly well; one explanation for all three.
 */
export const NOTHING_LEFT =
  'The molecule consists only of sugar: nothing would remain after removing it (fragments smaller than preservation_threshold are discarded too).';

/** The original service answered these texts when no sugar of the kind is found. */
function removal(kind: SugarKind, notFound: string) {
  return (a: Args, ctx: TaskContext): string => {
    const opts = options(a);
    // Presence was tested before the glycosidic-bond requirement was switched on.
    const r = removeSugars(ctx.rdkit, a.smiles, kind, opts, { ...opts, glycosidicBond: false });
    if (!r.found) return notFound;
    if (r.smiles === '') throw new AppError(422, NOTHING_LEFT, 'invalid_input');
    return r.smiles;
  };
}

/** The SugarDetectionUtility's extraction (shared/chem/sugars/extract.ts); `fn` makes the answer from the parts. */
function extraction<T>(fn: (x: Extraction, a: Args, ctx: TaskContext, mol: Mol) => T) {
  return (a: Args, ctx: TaskContext): T => {
    const opts = options(a);
    const circular = a.extract_circular_sugars ?? true;
    const linear = a.extract_linear_sugars ?? false;
    const post = a.post_process_sugars
      ? { circular, linear, markAttachPoints: a.mark_attach_points ?? false, limitBySize: a.limit_post_process_by_size ?? false }
      : undefined;
    return withMol(ctx.rdkit, a.smiles, (mol) => {
      const x: Extraction = circular || linear
        ? extractionIndices(ctx.rdkit, mol, circular && linear ? 'both' : circular ? 'circular' : 'linear', opts, post)
        : { aglycone: Array.from({ length: mol.get_num_atoms() }, (_, i) => i), sugars: [] };
      return fn(x, a, ctx, mol);
    });
  };
}

export const sugarsTasks = {
  extract_aglycone_and_sugars: extraction((x, a, ctx, mol) => extractionSmiles(ctx.rdkit, mol, x, a.mark_attach_points ?? false)),
  get_aglycone_and_sugar_indices: extraction((x) => [x.aglycone, ...x.sugars]),
  get_sugar_information: (a: Args, ctx: TaskContext) => sugarInfoMessage(detectSugars(ctx.rdkit, a.smiles, options(a))),
  remove_linear_sugars: removal('linear', 'No Linear sugar found'),
  remove_circular_sugars: removal('circular', 'No Circular sugars found'),
  remove_linear_and_circular_sugars: removal('both', 'No Linear or Circular sugars found'),
} satisfies OpTasks<typeof sugarsOps>;
