/**
 * Reports (COCONUT's submission and curation records): the checks mutate runs on them, and their
 * actions. A reader creates reports (status SUBMITTED by default, as COCONUT's ReportResource sets
 * it, or DRAFT) and edits its own drafts; `submit` moves DRAFT → SUBMITTED; curators `approve` or
 * `reject` (with a reason) a SUBMITTED report. Approving applies it through the same code paths
 * as a curator's own writes, so derivation, duplicate checks, counts and the audit trail follow:
 *
 * - SUBMISSION: a molecule is created by mutate (its structure derived: InChI, InChIKey,
 *   properties, CNP identifier), APPROVED and active, linked to the organism (found by name, or
 *   created) and the citation (found by DOI, or created); the report keeps `molecule_id`.
 * - UPDATE: `suggested_changes` are written by mutate to each reported record of `report_type`.
 * - REVOKE: reported APPROVED molecules become REVOKED (inactive); other records are left to the
 *   curator (a discrepancy on an organism, citation or collection has no automatic effect).
 *
 * Reports are never deleted; a rejected report stays readable to curators (and to its author).
 */
import { tracking } from '../audit/audit.ts';
import { can } from '../auth/policy.ts';
import { attributes } from '../mutate/attributes.ts';
import type { Derive } from '../mutate/derived.ts';
import { RESOURCES, reports, type ReportDoc } from '../schema/resources.ts';
import type { ResourceName } from '../schema/define.ts';
import type { CatalogStore, CollectionName } from '../store/types.ts';
import { Errors, HttpError, ValidationError, type CatalogUser } from '../schema/types.ts';

type Rec = Record<string, unknown>;
const isObj = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && !v.trim());

/** The resource and id-list field of each `report_type`. */
const TARGETS: Record<string, { resource: ResourceName; field: string }> = {
  molecule: { resource: 'molecules', field: 'molecule_ids' },
  organism: { resource: 'organisms', field: 'organism_ids' },
  citation: { resource: 'citations', field: 'citation_ids' },
  collection: { resource: 'collections', field: 'collection_ids' },
};
const ID_LISTS: [string, CollectionName][] = [['molecule_ids', 'molecules'], ['organism_ids', 'organisms'], ['citation_ids', 'citations'], ['collection_ids', 'collections']];

/** What the report checks read of a parsed mutate operation on reports (mutate-parse.ts, `Op`). */
interface ReportWrite {
  path: string;
  operation: string;
  key?: number;
  attributes: Rec;
}

/** COCONUT's `suggested_changes.new_molecule_data` (its createRules): the structure and the references' DOIs. */
function newMoleculeData(a: Rec): { smiles?: string; name?: string; doi?: string } {
  const sc = isObj(a.suggested_changes) ? a.suggested_changes : {};
  const nm = isObj(sc.new_molecule_data) ? sc.new_molecule_data : {};
  const refs = Array.isArray(nm.references) ? nm.references.filter(isObj) : [];
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  return { smiles: str(nm.canonical_smiles), name: str(nm.name), doi: str(refs.find((r) => str(r.doi))?.doi) };
}

/**
 * Mutate's checks on report operations (after the field checks): a title, what each category
 * needs, reported records that exist, `mol_ids` resolved to `molecule_ids`, and the fields only
 * the server sets (author, status default, times).
 */
export async function checkReportWrites(ops: ReportWrite[], store: CatalogStore, e: Errors, user: CatalogUser | undefined) {
  const now = new Date().toISOString();
  for (const op of ops) {
    const k = `${op.path}.attributes`;
    const a = op.attributes;
    if (Array.isArray(a.mol_ids)) {
      const ids = new Set((a.molecule_ids as number[] | undefined) ?? []);
      for (const [n, ident] of (a.mol_ids as string[]).entries()) {
        // COCONUT lists identifiers, sometimes with a stereo-variant suffix (`CNP0228556.0`)
        const m = await store.findOne('molecules', { identifier: ident.trim().replace(/\.\d+$/, '') });
        if (m) ids.add(m.id);
        else e.add(`${k}.mol_ids.${n}`, `The selected ${k}.mol_ids.${n} is invalid.`);
      }
      a.molecule_ids = [...ids];
    }
    for (const [field, coll] of ID_LISTS) {
      const ids = a[field];
      if (!Array.isArray(ids) || !ids.length) continue;
      const have = new Set((await store.find(coll, { id: { $in: ids } }, { fields: ['id'] })).map((d) => d.id));
      ids.forEach((id, n) => {
        if (!have.has(id as number)) e.add(`${k}.${field}.${n}`, `The selected ${k}.${field}.${n} is invalid.`);
      });
    }
    if (op.operation === 'update') {
      // only the actions move a report (submit, approve, reject)
      if ('status' in a) e.add(`${k}.status`, `The ${k}.status field is prohibited when ${op.path}.operation is update.`);
      a.updated_at = now;
      continue;
    }
    // create
    if (blank(a.title)) e.add(`${k}.title`, `The ${k}.title field is required.`);
    const category = (a.report_category as string | undefined) ?? 'SUBMISSION';
    const type = (a.report_type as string | undefined) ?? 'molecule';
    if (category === 'SUBMISSION') {
      if (blank(a.canonical_smiles) && !newMoleculeData(a).smiles) e.add(`${k}.canonical_smiles`, `The ${k}.canonical_smiles field is required when ${k}.report_category is SUBMISSION.`);
      if (type !== 'molecule') e.add(`${k}.report_type`, `The ${k}.report_type field must be molecule when ${k}.report_category is SUBMISSION.`);
    } else {
      const target = TARGETS[type];
      const list = a[target.field];
      if (!Array.isArray(list) || !list.length) e.add(`${k}.${target.field}`, `The ${k}.${target.field} field is required when ${k}.report_category is ${category}.`);
    }
    if (category === 'UPDATE') {
      if (!isObj(a.suggested_changes) || !Object.keys(a.suggested_changes).length) e.add(`${k}.suggested_changes`, `The ${k}.suggested_changes field is required when ${k}.report_category is UPDATE.`);
      else attributes(RESOURCES[TARGETS[type].resource], a.suggested_changes, `${k}.suggested_changes`, e);
    }
    Object.assign(a, { user_id: user?.id ?? null, status: a.status ?? 'SUBMITTED', created_at: now, updated_at: now });
  }
}

/** A reader edits its own drafts; nobody edits a decided report (403, after validation). */
export async function authorizeReportWrites(ops: ReportWrite[], store: CatalogStore, user: CatalogUser | undefined) {
  for (const op of ops) {
    if (op.operation !== 'update') continue;
    const doc = (await store.findByIds('reports', [op.key!]))[0];
    if (!doc || !can(user, 'update', doc, reports)) throw new HttpError(403, 'This action is unauthorized.');
  }
}

export interface ReportActionCtx {
  store: CatalogStore;
  user?: CatalogUser;
  derive: Derive;
  /** Mutate, for the writes an approval makes (passed in: mutate imports this module). */
  mutate: (resource: ResourceName, body: unknown, tags: string) => Promise<{ created: number[]; updated: number[] }>;
}

const MOVES: Record<string, { from: string; to: string }> = {
  submit: { from: 'DRAFT', to: 'SUBMITTED' },
  approve: { from: 'SUBMITTED', to: 'APPROVED' },
  reject: { from: 'SUBMITTED', to: 'REJECTED' },
};

/** A write an approval makes failed validation: the report is named, the messages kept. */
function failedApproval(report: ReportDoc, err: ValidationError): ValidationError {
  return new ValidationError({ [`reports.${report.id}`]: Object.values(err.errors).flat().map((m) => `Report ${report.id} cannot be approved: ${m}`) });
}

async function findOrCreateKey(store: CatalogStore, coll: 'organisms' | 'citations', field: string, value: string) {
  const hit = await store.findOne(coll, { [field]: value });
  return hit ? { operation: 'attach', key: hit.id } : null;
}

/** What approving one report writes (see the top of this file); returns the created molecule's id. */
async function apply(report: ReportDoc, ctx: ReportActionCtx): Promise<number | null> {
  const tags = `report:${report.id}`;
  const category = report.report_category ?? 'SUBMISSION';
  if (category === 'SUBMISSION') {
    const nm = newMoleculeData(report);
    const smiles = (report.canonical_smiles as string | null) ?? nm.smiles!;
    const name = report.name ?? nm.name;
    const doi = report.doi ?? nm.doi;
    const relations: Rec = {};
    if (!blank(report.organism)) {
      const name = (report.organism as string).trim();
      relations.organisms = [(await findOrCreateKey(ctx.store, 'organisms', 'name', name)) ?? { operation: 'create', attributes: { name } }];
    }
    if (!blank(doi)) {
      const d = (doi as string).trim();
      relations.citations = [(await findOrCreateKey(ctx.store, 'citations', 'doi', d)) ?? { operation: 'create', attributes: { doi: d, ...(blank(report.reference) ? {} : { title: report.reference }) } }];
    }
    const body = { mutate: [{ operation: 'create', attributes: { canonical_smiles: smiles, ...(blank(name) ? {} : { name }), status: 'APPROVED', active: true }, relations }] };
    const done = await ctx.mutate('molecules', body, tags);
    return done.created[0] ?? null;
  }
  const target = TARGETS[report.report_type ?? 'molecule'];
  const ids = (report[target.field] as number[] | undefined) ?? [];
  if (category === 'UPDATE' && ids.length) {
    await ctx.mutate(target.resource, { mutate: ids.map((key) => ({ operation: 'update', key, attributes: report.suggested_changes })) }, tags);
  }
  if (category === 'REVOKE' && target.resource === 'molecules') {
    await ctx.store.exclusive(async () => {
      const store = tracking(ctx.store);
      for (const m of await store.findByIds('molecules', ids)) if (m.status === 'APPROVED') await store.update('molecules', m.id, { status: 'REVOKED', active: false });
      await store.flush(ctx.user, tags);
    });
  }
  return null;
}

/** `submit`, `approve`, `reject` on the selected reports (readers select only their own). */
export async function reportAction(uriKey: string, ids: number[], fields: Rec, ctx: ReportActionCtx): Promise<number> {
  const m = MOVES[uriKey];
  const reason = typeof fields.reason === 'string' && fields.reason.trim() ? fields.reason : null;
  if (uriKey === 'reject' && !reason) throw new ValidationError({ fields: ['The reason field is required when rejecting a report.'] });
  const docs = await ctx.store.findByIds('reports', [...ids].sort((a, b) => a - b));
  const bad = docs.filter((d) => d.status !== m.from);
  if (bad.length) {
    const list = bad.slice(0, 10).map((d) => `report ${d.id} (${d.status})`).join(', ');
    throw new ValidationError({ search: [`Cannot move ${bad.length} report(s) to ${m.to}: ${list}${bad.length > 10 ? ', ...' : ''}; allowed from ${m.from}.`] });
  }
  for (const d of docs) {
    let molecule: number | null = null;
    if (uriKey === 'approve') {
      try {
        molecule = await apply(d, ctx);
      } catch (err) {
        if (err instanceof ValidationError) throw failedApproval(d, err);
        throw err;
      }
    }
    await ctx.store.exclusive(async () => {
      const store = tracking(ctx.store);
      const cur = (await store.findByIds('reports', [d.id]))[0];
      if (cur?.status !== m.from) throw new ValidationError({ search: [`Report ${d.id} was moved to ${cur?.status} meanwhile.`] });
      const set: Rec = { status: m.to, updated_at: new Date().toISOString() };
      if (uriKey !== 'submit') Object.assign(set, { curator_id: ctx.user?.id ?? null, reason });
      if (molecule !== null) set.molecule_id = molecule;
      await store.update('reports', d.id, set);
      await store.flush(ctx.user, `action:${uriKey}`);
    });
  }
  return docs.length;
}
