/**
 * Api-side handler of `generate_smiles`: structures go to the internal worker task
 * `generate_smiles` (shared/ops/convert.tasks.ts; the answer is the same JSON string); chemical names
 * (`representation=iupac`, or `auto` with an input RDKit cannot read that looks like a name) go
 * through the resolvers of api/names/resolve.ts. A name's answer is the same JSON string, plus
 * `x-resolver: opsin|catalog|extdb` over REST and a second text content over MCP (docs/names.md).
 */
import { AppError } from '../../../shared/errors.ts';
import { AnnotatedResult } from '../../../shared/ops/types.ts';
import { looksLikeName } from '../../names/detect.ts';
import { resolveName, type NameResolution } from '../../names/resolve.ts';
import type { ApiContext } from '../context.ts';
import type { HandlerArgs } from './types.ts';

export type GenerateSmilesArgs = HandlerArgs<'generate_smiles'>;

/** Header values are ASCII: anything else in a resolver's text is dropped from the header copy. */
const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);

export function annotate(r: NameResolution): AnnotatedResult {
  const headers: Record<string, string> = { 'x-resolver': r.resolver, 'x-resolver-source': ascii(r.source) };
  if (r.warning) headers['x-resolver-warning'] = ascii(r.warning);
  const note = `resolver: ${r.resolver} (${r.source})${r.warning ? `\nwarning: ${r.warning}` : ''}`;
  return new AnnotatedResult(r.smiles, headers, note);
}

export async function generateSmiles(args: GenerateSmilesArgs, ctx: ApiContext): Promise<unknown> {
  // representation=iupac named: OPSIN's own string, as the original answers it; auto: RDKit canonical SMILES.
  if (args.representation === 'iupac') return annotate(await resolveName(args.input_text, ctx, '', { asWritten: true }));
  const structure = () => ctx.runner.runTask('generate_smiles', 'generate_smiles', args, { mode: 'quick' });
  if (args.representation !== 'auto' || !looksLikeName(args.input_text)) return structure();
  try {
    return await structure();
  } catch (e) {
    const app = AppError.from(e);
    if (app?.status !== 422) throw e;
    const why = typeof app.detail === 'string' ? app.detail : JSON.stringify(app.detail);
    return annotate(await resolveName(args.input_text, ctx, `Not a structure RDKit can read (${why}), and not a known name. `));
  }
}

/** This family's api-side handlers by operation name (listed in index.ts). */
export const convertHandlers = { generate_smiles: generateSmiles };
