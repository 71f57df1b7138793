/**
 * Api-side handlers of compound classification (registry entries and the status mapping's
 * description: shared/ops/classify.ts): submit a structure, then poll for the ClassyFire-shaped result.
 *
 * Submit: the quick internal task `chemclass_key` validates the SMILES (422 naming it) and gives
 * its InChIKey; the long `chemclass_classify` job is submitted with the id `chemclass-<InChIKey>`,
 * so the same structure submitted again returns the existing job (queued, running or finished)
 * unless that one failed or was cancelled.
 *
 * Retrieve: job states map to the upstream `classification_status`: queued → "In Queue",
 * running → "Processing", succeeded → "Done", failed or cancelled → "Failed". A failed job's
 * error is given twice: as the report of an `invalid_entities` item (where upstream reports
 * unreadable input) and as `error: {status, detail}`.
 */
import { AppError } from '../../../shared/errors.ts';
import type { JobRecord, JobStatus } from '../../../shared/jobs/types.ts';
import { CHEMCLASS_JOB_PREFIX as JOB_PREFIX, CHEMCLASS_SUBMIT_OP } from '../../../shared/ops/classify.ts';
import type { ClassificationResult } from '../../../shared/ops/classify.tasks.ts';
import type { ApiContext } from '../context.ts';
import type { HandlerArgs } from './types.ts';

const STATUS: Record<JobStatus, string> = {
  queued: 'In Queue',
  running: 'Processing',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Failed',
};

export async function submitClassification(args: HandlerArgs<typeof CHEMCLASS_SUBMIT_OP>, ctx: ApiContext) {
  const key = await ctx.runner.runTask(CHEMCLASS_SUBMIT_OP, 'chemclass_key', { smiles: args.smiles });
  const rec = await ctx.runner.submitTask(CHEMCLASS_SUBMIT_OP, 'chemclass_classify', { smiles: args.smiles, inchikey: key.inchikey }, {
    mode: 'long',
    jobId: JOB_PREFIX + key.inchikey,
  });
  return {
    id: rec.id,
    label: 'query',
    status: STATUS[rec.status],
    status_url: `${ctx.baseUrl}${ctx.prefix}/chem/chemclass/${encodeURIComponent(rec.id)}/result`,
    query_input: args.smiles,
    query_type: 'STRUCTURE',
    inchikey: key.inchikey,
    query_errors: null,
    created_at: rec.created_at,
    updated_at: rec.finished_at ?? rec.started_at ?? rec.created_at,
    finished_at: rec.finished_at ?? null,
    finished_processing_at: rec.finished_at ?? null,
    fstruc_file_name: null,
    fstruc_content_type: null,
    fstruc_file_size: null,
    fstruc_updated_at: null,
    tag_list: [],
  };
}

function failure(rec: JobRecord) {
  const detail = rec.status === 'cancelled'
    ? `Job ${rec.id} was cancelled`
    : typeof rec.error?.detail === 'string' ? rec.error.detail : JSON.stringify(rec.error?.detail ?? 'classification failed');
  return {
    invalid_entities: [{ identifier: 'Q1', report: [detail] }],
    error: { status: rec.status === 'cancelled' ? 409 : rec.error?.status ?? 500, detail },
  };
}

export async function retrieveClassification(args: HandlerArgs<'retrieve_chemclass_results'>, ctx: ApiContext) {
  const rec = args.jobid.startsWith(JOB_PREFIX) ? await ctx.runner.get(args.jobid) : undefined;
  if (!rec || rec.op !== CHEMCLASS_SUBMIT_OP) {
    throw new AppError(404, `No classification job with id ${args.jobid}`, 'not_found');
  }
  const done = rec.status === 'succeeded' ? (rec.result as ClassificationResult) : undefined;
  const failed = rec.status === 'failed' || rec.status === 'cancelled' ? failure(rec) : undefined;
  const entities = done?.entities ?? [];
  return {
    id: rec.id,
    label: 'query',
    classification_status: STATUS[rec.status],
    number_of_elements: entities.length,
    number_of_pages: 1,
    progress: rec.progress,
    classifier: done?.classifier ?? null,
    created_at: rec.created_at,
    finished_at: rec.finished_at ?? null,
    invalid_entities: failed?.invalid_entities ?? done?.invalid_entities ?? [],
    entities,
    ...(failed ? { error: failed.error } : {}),
  };
}

/** This family's api-side handlers by operation name (listed in index.ts). */
export const classifyHandlers = {
  generate_chemclass_classifications: submitClassification,
  retrieve_chemclass_results: retrieveClassification,
};
