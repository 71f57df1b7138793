/**
 * Registry entries of compound classification (docs/spec/chem-service.md §2.1 (10)/(11), renamed from the upstream
 * ClassyFire pair): submit a structure, then poll for the ClassyFire-shaped result. Both run in
 * the api process (no RDKit there) through the job runner: their handlers are in
 * api/chem/handlers/classify.ts, the internal tasks they submit in classify.tasks.ts.
 *
 * Submit: the quick `chemclass_key` task validates the SMILES (422 naming it) and gives its
 * InChIKey; the long `chemclass_classify` job is submitted with the id `chemclass-<InChIKey>`, so
 * the same structure submitted again returns the existing job (queued, running or finished)
 * unless that one failed or was cancelled.
 *
 * Retrieve: job states map to the upstream `classification_status`: queued → "In Queue",
 * running → "Processing", succeeded → "Done", failed or cancelled → "Failed". A failed job's
 * error is given twice: as the report of an `invalid_entities` item (where upstream reports
 * unreadable input) and as `error: {status, detail}`.
 */
import { z } from 'zod';
import { smiles } from './params.ts';
import { defineOp } from './types.ts';
import { CAFFEINE, SPEC } from './examples.ts';
import { autoDetect } from './auto-detect.ts';

export const CHEMCLASS_SUBMIT_OP = 'generate_chemclass_classifications';
/** Classification jobs are submitted with the id `<prefix><InChIKey>` (idempotent per structure). */
export const CHEMCLASS_JOB_PREFIX = 'chemclass-';
const JOB_PREFIX = CHEMCLASS_JOB_PREFIX;

// Caffeine's InChIKey (the job id is keyed by it; spec §2.2 (22)) and its classification as ClassyFire
// publishes it: class Imidazopyrimidines (spec §2.1 (11)), and the ChemOnt path of xanthines
// (test/fixtures/chemclass_lotus_labels.tsv, xanthine: Organic compounds, Organoheterocyclic compounds,
// Imidazopyrimidines, direct parent Xanthines; subclass Purines and purine derivatives).
const CAFFEINE_KEY = 'RYYVLZVUVIJVGH-UHFFFAOYSA-N';
const CLASSYFIRE_SOURCE = `${SPEC('§2.1 (10)-(11), (22)')}; ClassyFire's ChemOnt path of xanthines (test/fixtures/chemclass_lotus_labels.tsv)`;
const named = (name: string) => ({ $fields: { name } });

// Answer shapes: api/chem/handlers/classify.ts (STATUS, the submission, the retrieval), the offline
// entity of shared/chem/classify/classify.ts (ChemclassEntity; tree.ts: TaxNode, NpResult).
const STATUSES = ['In Queue', 'Processing', 'Done', 'Failed'] as const;
const timestamp = () => z.string().describe('ISO 8601 time');
const none = () => z.tuple([]).describe('Always empty');
const taxNode = z.strictObject({ name: z.string(), description: z.string(), chemont_id: z.string(), url: z.string() });
const entity = z.strictObject({
  identifier: z.string(),
  smiles: z.string().describe('RDKit canonical Kekulé SMILES'),
  inchikey: z.string().nullable(),
  kingdom: taxNode.nullable(),
  superclass: taxNode.nullable(),
  class: taxNode.nullable(),
  subclass: taxNode.nullable(),
  intermediate_nodes: z.array(taxNode),
  direct_parent: taxNode.nullable(),
  alternative_parents: z.array(taxNode),
  ancestors: z.array(z.string()),
  molecular_framework: z.string(),
  substituents: z.array(z.string()),
  description: z.string(),
  external_descriptors: none(),
  predicted_chebi_terms: none(),
  predicted_lipidmaps_terms: none(),
  classification_version: z.string(),
  npclassifier: z.strictObject({
    pathway: z.string().nullable(),
    superclass: z.string().nullable(),
    class: z.string().nullable(),
    pathways: z.array(z.string()),
    is_glycoside: z.boolean(),
  }),
});
const retrieval = {
  id: z.string(),
  label: z.literal('query'),
  classification_status: z.enum(STATUSES),
  number_of_elements: z.int().min(0),
  number_of_pages: z.literal(1),
  // A job's progress as its task reports it: a number, or a small object whose keys depend on the
  // classifier (the offline one's stage; a remote service's own progress), hence free-form.
  progress: z.union([z.number(), z.record(z.string(), z.unknown())]),
  created_at: timestamp(),
  finished_at: timestamp().nullable(),
  error: z.strictObject({ status: z.int(), detail: z.string() }).optional().describe('A failed or cancelled job only'),
};
const classificationAnswer = z.union([
  z.strictObject({
    ...retrieval,
    classifier: z.string().startsWith('rules ').nullable().describe('The offline rule set ("rules <version>"); null until done'),
    entities: z.array(entity),
    invalid_entities: z.array(z.strictObject({ identifier: z.string(), report: z.array(z.string()) })),
  }).describe('Classified offline (or not finished)'),
  z.strictObject({
    ...retrieval,
    classifier: z.url().describe('The ClassyFire-compatible service (CHEMCLASS_URL) that classified it'),
    // Passed through as that external service answers them: their shape is the service's.
    entities: z.array(z.looseObject({})),
    invalid_entities: z.array(z.unknown()),
  }).describe('Classified by the service CHEMCLASS_URL names'),
]);

export const classifyOps = [
  defineOp({
    name: CHEMCLASS_SUBMIT_OP,
    // Forwarded to CHEMCLASS_URL's service when one is configured; offline otherwise.
    openWorld: (config) => !!config.CHEMCLASS_URL,
    method: 'GET',
    path: '/chem/chemclass/classify',
    summary: 'Submit a structure for hierarchical (ChemOnt-style) and natural-product pathway classification',
    description:
      'Validates the SMILES (422 when it cannot be read) and queues a classification job keyed by the InChIKey: the same ' +
      'structure submitted again returns the existing job. Answers at once (202) with `{id, status, status_url, query_input, ...}`; ' +
      'poll `status_url` (retrieve_chemclass_results). The classifier is an offline, transparent rule set (SMARTS, ring and ' +
      'skeleton rules; docs/chemclass.md) producing a ClassyFire-shaped entity (kingdom, superclass, class, subclass, direct ' +
      'parent, alternative parents) plus an NPClassifier-style `npclassifier` part (pathway, superclass, class, is_glycoside). ' +
      'When CHEMCLASS_URL is configured, jobs are forwarded to that ClassyFire-compatible service instead.',
    tag: 'chem',
    args: z.object({ smiles: smiles(), auto_detect: autoDetect() }),
    output: 'application/json',
    // The 202 body of the handler (not a job record).
    answer: z.strictObject({
      id: z.string(),
      label: z.literal('query'),
      status: z.enum(STATUSES),
      status_url: z.string().describe('URL of retrieve_chemclass_results for this job'),
      query_input: z.string(),
      query_type: z.literal('STRUCTURE'),
      inchikey: z.string(),
      query_errors: z.null(),
      created_at: timestamp(),
      updated_at: timestamp(),
      finished_at: timestamp().nullable(),
      finished_processing_at: timestamp().nullable(),
      fstruc_file_name: z.null(),
      fstruc_content_type: z.null(),
      fstruc_file_size: z.null(),
      fstruc_updated_at: z.null(),
      tag_list: none(),
    }),
    mode: 'long',
    task: 'chemclass_classify',
    examples: [{
      query: { smiles: CAFFEINE },
      expected: {
        value: { $fields: { id: JOB_PREFIX + CAFFEINE_KEY, label: 'query', query_input: CAFFEINE, query_type: 'STRUCTURE', inchikey: CAFFEINE_KEY } },
        source: CLASSYFIRE_SOURCE,
      },
    }],
    handler: 'api',
    successStatus: 202,
  }),
  defineOp({
    name: 'retrieve_chemclass_results',
    method: 'GET',
    path: '/chem/chemclass/{jobid}/result',
    summary: 'Retrieve the classification of a submitted structure by job id',
    description:
      'Answers `{id, classification_status: "In Queue"|"Processing"|"Done"|"Failed", entities, invalid_entities, ...}`. ' +
      'A failed job carries its error in `invalid_entities[0].report` and in `error`. Unknown ids answer 404. Results are ' +
      'kept for the job-result lifetime (JOB_RESULT_TTL seconds).',
    tag: 'chem',
    args: z.object({ jobid: z.string().min(1).max(200).describe('Job id returned by generate_chemclass_classifications') }),
    output: 'application/json',
    answer: classificationAnswer,
    mode: 'quick',
    // Never executed: the api handler only reads the job record.
    task: 'chemclass_classify',
    handler: 'api',
    // The job of the example of generate_chemclass_classifications.
    examples: [{
      query: { jobid: JOB_PREFIX + CAFFEINE_KEY },
      expected: {
        value: {
          $fields: {
            id: JOB_PREFIX + CAFFEINE_KEY,
            classification_status: 'Done',
            number_of_elements: 1,
            invalid_entities: [],
            entities: [{
              $fields: {
                inchikey: CAFFEINE_KEY,
                kingdom: named('Organic compounds'),
                superclass: named('Organoheterocyclic compounds'),
                class: named('Imidazopyrimidines'),
                subclass: named('Purines and purine derivatives'),
                direct_parent: named('Xanthines'),
              },
            }],
          },
        },
        source: CLASSYFIRE_SOURCE,
      },
    }],
  }),
] as const;
