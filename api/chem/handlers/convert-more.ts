/**
 * Api-side handler of the batch conversion (CM 3.11 `/convert/batch`; docs/convert.md): the
 * chemistry thread converts every input it can read (internal task `batch_convert`); the InChI
 * and name inputs it hands back are read here (InChI by Open Babel, `inchi_to_smiles`; names by
 * the resolvers of generate_smiles, api/names/resolve.ts) and sent again as SMILES, and their
 * results take the place of the provisional ones, with the input as it was given.
 */
import { AppError } from '../../../shared/errors.ts';
import type { BatchAnswer } from '../../../shared/ops/convert-more.tasks.ts';
import { resolveName } from '../../names/resolve.ts';
import type { ApiContext } from '../context.ts';
import type { HandlerArgs } from './types.ts';

const OP = 'batch_convert_convert_batch_post';
/** Names and InChIs read at once (a name may ask the external database). */
const PARALLEL = 4;

const reason = (e: unknown) => {
  const app = AppError.from(e);
  if (!app || (app.status >= 500 && app.status !== 503)) throw e;
  return typeof app.detail === 'string' ? app.detail : JSON.stringify(app.detail);
};

export async function batchConvert(args: HandlerArgs<'batch_convert_convert_batch_post'>, ctx: ApiContext): Promise<unknown> {
  const first: BatchAnswer = await ctx.runner.runTask(OP, 'batch_convert', args, { mode: 'quick' });
  const { results, pending } = first;
  // Each pending input's SMILES, or the reason it has none.
  const read: (string | Error)[] = [];
  for (let i = 0; i < pending.length; i += PARALLEL) {
    read.push(...await Promise.all(pending.slice(i, i + PARALLEL).map(async ({ needs, text }) => {
      try {
        if (needs === 'inchi') return await ctx.runner.runTask(OP, 'inchi_to_smiles', { inchi: text, toolkit: 'openbabel' }, { mode: 'quick' });
        return (await resolveName(text, ctx)).smiles;
      } catch (e) {
        const what = needs === 'inchi' ? `Failed to convert InChI '${text.slice(0, 200)}' to molecule` : `Failed to convert IUPAC name '${text.slice(0, 200)}' to SMILES`;
        return new Error(`${what}: ${reason(e)}`);
      }
    })));
  }
  const again = pending.flatMap((p, k) => (typeof read[k] === 'string' ? [{ index: p.index, smiles: read[k] }] : []));
  pending.forEach((p, k) => {
    const r = read[k];
    if (r instanceof Error) results[p.index] = { ...results[p.index], error: r.message };
  });
  if (again.length) {
    const second: BatchAnswer = await ctx.runner.runTask(OP, 'batch_convert', {
      ...args, inputs: again.map((x) => ({ value: x.smiles, input_format: 'smiles' })),
    }, { mode: 'quick' });
    again.forEach((x, k) => {
      results[x.index] = { ...second.results[k], input: results[x.index].input };
    });
  }
  const successful = results.filter((r) => r.success).length;
  return { results, summary: { total: results.length, successful, failed: results.length - successful } };
}

/** This family's api-side handlers by operation name (listed in index.ts). */
export const convertMoreHandlers = { batch_convert_convert_batch_post: batchConvert };
