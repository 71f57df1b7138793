/** Worker task of the structure-generation family; see structgen.ts for the registry entry. */
import { AppError } from '../errors.ts';
import { canonicalSmiles, describeSettings, generateMolecules, parseFormula, type StructgenOptions } from '../chem/structgen/structgen.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { structgenOps } from './structgen.ts';

interface Args {
  molecular_formula: string;
  limit: number;
  max_heavy_atoms: number;
  planar: boolean;
  allow_triple_bonds: boolean;
  bad_substructures: string;
  allow_3_rings: boolean;
  allow_4_cycles: boolean;
}

function badClasses(text: string): number[] {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'none') return [];
  const out = new Set<number>();
  for (const part of t.split(',')) {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n < 1 || n > 9) {
      throw new AppError(422, `Invalid bad_substructures '${text}': expected comma-separated classes 1-9`, 'invalid_input');
    }
    out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/** Yield to the event loop so cancellation messages and progress reach us during a long run. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function generateStructures(args: Args, ctx: TaskContext) {
  const formula = parseFormula(args.molecular_formula);
  if (formula.heavyAtoms > args.max_heavy_atoms) {
    throw new AppError(422, `The molecular formula contains more heavy atoms than allowed (${formula.heavyAtoms} heavy atoms; the cap is ${args.max_heavy_atoms})`, 'invalid_input');
  }
  const options: StructgenOptions = {
    planar: args.planar,
    allowTripleBonds: args.allow_triple_bonds,
    badSubstructures: badClasses(args.bad_substructures),
    allowThreeRings: args.allow_3_rings,
    allowFourCycles: args.allow_4_cycles,
  };
  const structures: string[] = [];
  let total = 0;
  let last = Date.now();
  for (const m of generateMolecules(formula, options)) {
    if (m) {
      total++;
      if (structures.length < args.limit) structures.push(canonicalSmiles(ctx.rdkit, m));
    }
    if ((total & 255) === 0 || m === null) {
      const now = Date.now();
      if (now - last >= 200) {
        last = now;
        ctx.progress({ generated: total });
        await breathe();
      }
      ctx.signal.throwIfAborted();
    }
  }
  ctx.progress({ generated: total });
  return {
    total_count: total,
    generated_count: structures.length,
    structures,
    settings: describeSettings(options),
    formula: args.molecular_formula.trim(),
    limit_applied: total > structures.length,
  };
}

export const structgenTasks = {
  generate_structures: (args: Args, ctx: TaskContext) => generateStructures(args, ctx),
} satisfies OpTasks<typeof structgenOps>;
