/**
 * Worker tasks of compound classification; the registry entries are in classify.ts, their api-side
 * handlers (which submit these internal tasks) in api/chem/handlers/classify.ts.
 *
 * - `chemclass_key` (quick): parse the structure and answer its InChIKey, which keys the
 *   classification job so that the same structure submitted twice reuses one job.
 * - `chemclass_classify` (long): classify with the offline rule set (shared/chem/classify/classify.ts),
 *   or, when CHEMCLASS_URL is set, forward to that ClassyFire-compatible service and wait.
 */
import { AppError } from '../errors.ts';
import { classifyStructure, RULES } from '../chem/classify/classify.ts';
import { canonicalKekule, inchikey } from '../chem/convert/convert.ts';
import { withMol } from '../chem/core/rdkit.ts';
import { classifyRemotely } from '../extdb/classyfire.ts';
import { z } from 'zod';
import { smiles } from './params.ts';
import { internalTask, internalTasks } from './task-args.ts';
import type { OpTasks, TaskTable } from './types.ts';
import type { classifyOps } from './classify.ts';

/** Timeout of one request to an external classification service (polling continues until the job's own limit). */
export const REMOTE_REQUEST_TIMEOUT_MS = 30_000;

export interface ClassificationResult {
  /** `rules <version>` for the offline classifier, or the service URL. */
  classifier: string;
  inchikey: string;
  entities: unknown[];
  invalid_entities: unknown[];
}

export const classifyTasks = internalTasks({
  chemclass_key: internalTask(z.object({ smiles: smiles() }), (args, ctx): { inchikey: string; canonical_smiles: string } =>
    withMol(ctx.rdkit, args.smiles, (mol) => {
      const key = inchikey(ctx.rdkit, mol);
      if (!key) throw new AppError(422, `Cannot compute an InChIKey for the SMILES: ${args.smiles}`, 'invalid_input');
      return { inchikey: key, canonical_smiles: canonicalKekule(mol) };
    })),

  chemclass_classify: internalTask(
    z.object({ smiles: smiles(), inchikey: z.string().min(1).max(100) }),
    async (args, ctx): Promise<ClassificationResult> => {
      const url = ctx.config.CHEMCLASS_URL;
      if (url) {
        const remote = await classifyRemotely(args.smiles, {
          baseUrl: url,
          timeoutMs: REMOTE_REQUEST_TIMEOUT_MS,
          signal: ctx.signal,
          onProgress: (p) => ctx.progress(p),
        });
        return { classifier: url, inchikey: args.inchikey, entities: remote.entities, invalid_entities: remote.invalid_entities };
      }
      ctx.progress({ stage: 'classifying' });
      ctx.signal.throwIfAborted();
      const entity = classifyStructure(ctx.rdkit, args.smiles);
      return { classifier: `rules ${RULES.version}`, inchikey: args.inchikey, entities: [{ ...entity, identifier: 'Q1' }], invalid_entities: [] };
    },
  ),
}) satisfies OpTasks<typeof classifyOps> & TaskTable;
