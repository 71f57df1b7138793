/**
 * The MCP tool `submit_report`: a report to the catalog's curators, as the MCP connection's user
 * (CatalogToolDeps.user): a new molecule (SUBMISSION), a discrepancy or a synthetic compound
 * (REVOKE), or a correction (UPDATE with `suggested_changes`). It runs what
 * `POST /api/reports/mutate` with one `create` runs (mutate, with the report checks of
 * api/catalog/reports/reports.ts): the same 422s and 403s, and the same record, which it answers
 * beside mutate's `{created, updated}`, read back as `POST /api/reports/search` gives it.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { mutate } from '../catalog/mutate/mutate.ts';
import { REPORT_CATEGORIES, REPORT_TYPES } from '../catalog/schema/reports.ts';
import { reports } from '../catalog/schema/resources.ts';
import type { CatalogUser } from '../catalog/schema/types.ts';
import type { CatalogTool, CatalogToolDeps } from './catalog-tools.ts';
import { asUser, restSearch } from './molecule-tools.ts';

export const SUBMIT_REPORT = 'submit_report';

const ids = (what: string) => ({ type: 'array', items: { type: 'integer', minimum: 1 }, title: `${what} ids`, description: `REVOKE or UPDATE of ${what.toLowerCase()}s: the reported ids` });

export const SUBMIT_REPORT_TOOL: Tool = {
  name: SUBMIT_REPORT,
  title: 'Report to the catalog\'s curators',
  // Writes a report (never changes catalog records itself: curators decide); each call adds one.
  annotations: { title: 'Report to the catalog\'s curators', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: [
    'Report to the catalog\'s curators: submit a new natural product, or report a problem or a correction',
    '`report_category`: SUBMISSION (a new molecule: `canonical_smiles` required, with `name`, `organism`, `organism_part`, `geo_location`, ' +
      '`doi` and `reference` of the publication), REVOKE (a discrepancy or a synthetic compound: the reported records in `mol_ids` ' +
      '(CNP identifiers) or `molecule_ids`, `organism_ids`, `citation_ids`, `collection_ids` after `report_type`) or UPDATE (a correction: ' +
      'the reported records and `suggested_changes`, field → new value, e.g. {"name": "..."}). Always a `title`; `evidence` and `comment` help the curator. ' +
      'Created as the token\'s user, status SUBMITTED (or DRAFT); curators approve or reject it. The same write as POST /api/reports/mutate ' +
      '{"mutate": [{"operation": "create", "attributes": {...}}]}; answers {created, updated, report}. Needs a reader token.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${SUBMIT_REPORT}Arguments`,
    properties: {
      title: { type: 'string', minLength: 1, title: 'Title', description: 'What the report is about' },
      report_category: { type: 'string', enum: [...REPORT_CATEGORIES], default: 'SUBMISSION', title: 'Report Category', description: 'SUBMISSION, REVOKE or UPDATE' },
      report_type: { type: 'string', enum: [...REPORT_TYPES], default: 'molecule', title: 'Report Type', description: 'What is reported (SUBMISSION: molecule)' },
      evidence: { type: 'string', title: 'Evidence', description: 'Evidence for the report' },
      comment: { type: 'string', title: 'Comment', description: 'A comment for the curator' },
      doi: { type: 'string', title: 'DOI', description: 'DOI of the publication that supports it' },
      canonical_smiles: { type: 'string', title: 'Structure', description: 'SUBMISSION: the structure (SMILES, CXSMILES or a molblock)' },
      name: { type: 'string', title: 'Name', description: 'SUBMISSION: the molecule\'s name' },
      organism: { type: 'string', title: 'Organism', description: 'SUBMISSION: the organism it was found in (scientific name)' },
      organism_part: { type: 'string', title: 'Organism Part', description: 'SUBMISSION: the part of the organism' },
      geo_location: { type: 'string', title: 'Geographic Location', description: 'SUBMISSION: where the organism was collected' },
      reference: { type: 'string', title: 'Reference', description: 'SUBMISSION: the citation as text' },
      mol_ids: { type: 'array', items: { type: 'string' }, title: 'Molecule Identifiers', description: 'REVOKE or UPDATE of molecules: their CNP identifiers' },
      molecule_ids: ids('Molecule'),
      organism_ids: ids('Organism'),
      citation_ids: ids('Citation'),
      collection_ids: ids('Collection'),
      suggested_changes: { type: 'object', title: 'Suggested Changes', description: 'UPDATE: field → new value for the reported records' },
      status: { type: 'string', enum: ['SUBMITTED', 'DRAFT'], default: 'SUBMITTED', title: 'Status', description: 'DRAFT keeps it editable by its author until submitted' },
    },
    required: ['title'],
    additionalProperties: false,
  },
};

export async function submitReport(deps: CatalogToolDeps, user: CatalogUser, args: Record<string, unknown>) {
  const runner = deps.context.runner;
  // A report's structure is derived only when a curator approves it; mutate takes the derivation all the same.
  const derive = (input: Parameters<Parameters<typeof mutate>[2]['derive']>[0]) => runner.runTask('derive_molecule', 'derive_molecule', input);
  const body = { mutate: [{ operation: 'create', attributes: args }] };
  const done = await mutate(reports, body, { store: deps.structure.store, user, derive });
  const read = await restSearch(reports, { search: { filters: [{ field: 'id', operator: 'in', value: done.created }] } }, deps, user);
  return { ...done, report: read.data[0] ?? null };
}

export const submitReportTool: CatalogTool = {
  tool: SUBMIT_REPORT_TOOL,
  call: (deps, args) => asUser(SUBMIT_REPORT, deps, (user) => submitReport(deps, user, args ?? {})),
};
