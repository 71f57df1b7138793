/**
 * `auto_detect=true` (CM 3.11's opt-in on the structure endpoints; docs/convert.md): before an
 * operation runs, its `smiles` argument is read as whatever format it is (detected as
 * /convert/detect-format does) and replaced by SMILES, so every toolkit and task sees what it
 * always sees. SMILES, SELFIES, molblocks and XYZ are read on a chemistry thread
 * (`resolve_structure_input`), InChI by Open Babel (`inchi_to_smiles`), names by the resolvers of
 * generate_smiles (OPSIN, the catalog, the external database; api/names/resolve.ts).
 */
import { AppError } from '../../shared/errors.ts';
import { resolveName } from '../names/resolve.ts';
import type { ApiContext } from './context.ts';

/** The operation that names the resolving tasks in job records and metrics. */
const OP = 'detect_format_convert_detect_format_get';

/** The arguments with `smiles` read from any supported format (and `auto_detect` spent). */
export async function resolveAutoDetect(args: Record<string, unknown>, ctx: ApiContext): Promise<Record<string, unknown>> {
  if (args.auto_detect !== true || typeof args.smiles !== 'string') return args;
  const resolved = await ctx.runner.runTask(OP, 'resolve_structure_input', { input: args.smiles }, { mode: 'quick' });
  let smiles: string;
  if ('smiles' in resolved) smiles = resolved.smiles;
  else if (resolved.needs === 'inchi') smiles = await ctx.runner.runTask(OP, 'inchi_to_smiles', { inchi: resolved.text, toolkit: 'openbabel' }, { mode: 'quick' });
  else smiles = (await resolveName(resolved.text, ctx, 'auto_detect read the input as a chemical name. ')).smiles;
  if (!smiles) throw new AppError(422, 'auto_detect: the input holds no atoms', 'invalid_input');
  return { ...args, smiles, auto_detect: false };
}
