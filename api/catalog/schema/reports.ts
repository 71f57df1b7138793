/**
 * Reports: COCONUT's `ReportResource`, its submission and curation records. A reader submits a
 * new molecule (`report_category` SUBMISSION) or reports existing records (REVOKE: a discrepancy
 * or a synthetic compound; UPDATE: a change request with `suggested_changes`). Curators approve
 * or reject them (actions); approving applies them (api/catalog/reports/). Never deleted.
 */
import { defineSchema } from './define.ts';

export const REPORT_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED'] as const;
export const REPORT_CATEGORIES = ['SUBMISSION', 'REVOKE', 'UPDATE'] as const;
export const REPORT_TYPES = ['molecule', 'organism', 'citation', 'collection'] as const;

export const reportsSchema = defineSchema({
  name: 'reports',
  collection: 'reports',
  className: 'ReportResource',
  doc: 'A submission or a report on existing records, curated DRAFT → SUBMITTED → APPROVED or REJECTED. Readers create them and see their own; curators see all and decide.',
  createRole: 'reader',
  ownerField: 'user_id',
  noDelete: true,
  fields: {
    id: { type: 'int', doc: 'Numeric key.' },
    title: { type: 'string', rule: 'required_on_create|string', doc: 'What it is about (required).' },
    evidence: { type: 'string', doc: 'Evidence for the report or the submission.' },
    comment: { type: 'string', doc: 'The submitter\'s comment.' },
    doi: { type: 'string', doc: 'DOI of the publication that supports it (a submission\'s citation).' },
    report_type: { type: 'string', default: 'molecule', oneOf: ['molecule', 'organism', 'citation', 'collection'], doc: 'What is reported: `molecule`, `organism`, `citation` or `collection`.' },
    report_category: { type: 'string', default: 'SUBMISSION', index: { embedded: 'column' }, oneOf: ['SUBMISSION', 'REVOKE', 'UPDATE'], doc: '`SUBMISSION` (a new molecule), `REVOKE` (a discrepancy or a synthetic compound), `UPDATE` (a change request).' },
    status: { type: 'string', index: { embedded: 'column' }, oneOf: ['DRAFT', 'SUBMITTED'], rule: 'nullable|in:DRAFT,SUBMITTED', doc: '`DRAFT`, `SUBMITTED` (the default on create, as COCONUT), `APPROVED`, `REJECTED`; only the actions move it.' },
    user_id: { type: 'int', readOnly: true, index: true, doc: 'Who submitted it (set on create).' },
    suggested_changes: { type: 'json', doc: 'UPDATE: field → new value for the reported records; COCONUT\'s `new_molecule_data` is read for a SUBMISSION.' },
    mol_ids: { type: 'string[]', doc: 'Reported molecules by identifier (COCONUT\'s field); resolved into `molecule_ids`.' },
    molecule_ids: { type: 'int[]', doc: 'Reported molecules (ids).' },
    organism_ids: { type: 'int[]', doc: 'Reported organisms (ids).' },
    citation_ids: { type: 'int[]', doc: 'Reported citations (ids).' },
    collection_ids: { type: 'int[]', doc: 'Reported collections (ids).' },
    canonical_smiles: { type: 'string', doc: 'SUBMISSION: the structure (SMILES, CXSMILES or a molblock).' },
    name: { type: 'string', doc: 'SUBMISSION: the molecule\'s name.' },
    organism: { type: 'string', doc: 'SUBMISSION: the organism it was found in (scientific name).' },
    organism_part: { type: 'string', doc: 'SUBMISSION: the part of the organism (kept on the report).' },
    geo_location: { type: 'string', doc: 'SUBMISSION: where the organism was collected (kept on the report).' },
    reference: { type: 'string', doc: 'SUBMISSION: the citation as text (the title of a new citation).' },
    reason: { type: 'string', readOnly: true, doc: 'The curator\'s reason given with approve or reject.' },
    curator_id: { type: 'int', readOnly: true, doc: 'The curator who approved or rejected it.' },
    molecule_id: { type: 'int', readOnly: true, doc: 'The molecule an approved SUBMISSION created.' },
    created_at: { type: 'string', readOnly: true, doc: 'Creation time (ISO 8601, UTC).' },
    updated_at: { type: 'string', readOnly: true, doc: 'Last change (ISO 8601, UTC).' },
  },
  actions: [
    { name: 'Submit', uriKey: 'submit', fields: {}, standalone: false, role: 'reader' },
    { name: 'Approve', uriKey: 'approve', fields: { reason: ['sometimes', 'string', 'max:1000'] }, standalone: false },
    { name: 'Reject', uriKey: 'reject', fields: { reason: ['required', 'string', 'max:1000'] }, standalone: false },
  ],
});
