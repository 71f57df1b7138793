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
    args: z.object({ smiles: smiles() }),
    output: 'application/json',
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
