/**
 * Actions (`POST /api/<r>/actions/<uriKey>`): the molecule status lifecycle, re-derivation of
 * molecules' chemistry, and the refresh of kept counts (`molecule_count`; on molecules
 * `organism_count`, `annotation_level` and the stereo family fields). The records are those of the request's
 * `search` without pagination (docs/spec/catalog-api.md §2.7); `impacted` counts the records actually changed or
 * queued, not the requested limit (a Lomkit quirk we do not copy).
 */
import { eachLimited, type BackgroundWork } from './background.ts';
import { refreshMoleculeCounts, touchBlockOf, touchedNone } from '../mutate/counts.ts';
import { derivedFields, type Derive } from '../mutate/derived.ts';
import { canRun } from '../auth/policy.ts';
import type { ResourceDef } from '../schema/resources.ts';
import { matchingIds, validateSearch } from '../search/index.ts';
import { familyIdentifier } from '../mutate/identifiers.ts';
import type { CatalogStore, Doc } from '../store/types.ts';
import { Errors, HttpError, ValidationError, type CatalogUser } from '../schema/types.ts';
import { AppError } from '../../../shared/errors.ts';
import { tracking } from '../audit/audit.ts';
import { reportAction } from '../reports/reports.ts';
import { mutate } from '../mutate/mutate.ts';
import { RESOURCES, type ResourceName } from '../schema/resources.ts';

export interface ActionCtx {
  store: CatalogStore;
  user?: CatalogUser;
  derive: Derive;
  background: BackgroundWork;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Status lifecycle DRAFT → INREVIEW → APPROVED → REVOKED (and back to review or approval). */
const MOVES: Record<string, { from: string[]; to: string; active?: boolean }> = {
  'submit-for-review': { from: ['DRAFT', 'REVOKED'], to: 'INREVIEW' },
  approve: { from: ['INREVIEW', 'REVOKED'], to: 'APPROVED', active: true },
  revoke: { from: ['APPROVED'], to: 'REVOKED', active: false },
};

/** Derivations in flight at once for one recompute (each is a worker job). */
const RECOMPUTE_LANES = 4;

/** Moves the molecules' status; a `reason` goes into the molecule's (unexposed) curation log, as in COCONUT. */
async function move(uriKey: string, ids: number[], reason: unknown, ctx: ActionCtx) {
  const m = MOVES[uriKey];
  const entry = typeof reason === 'string' && reason.trim() ? { timestamp: new Date().toISOString(), user_id: ctx.user?.id ?? null, action: uriKey, comment: reason } : null;
  return ctx.store.exclusive(async () => {
    const store = tracking(ctx.store);
    const docs = await store.findByIds('molecules', [...ids].sort((a, b) => a - b));
    const bad = docs.filter((d) => !m.from.includes((d.status as string) ?? 'DRAFT'));
    if (bad.length) {
      const list = bad.slice(0, 10).map((d) => `${d.identifier ?? `id ${d.id}`} (${d.status ?? 'DRAFT'})`).join(', ');
      throw new ValidationError({ search: [`Cannot move ${bad.length} molecule(s) to ${m.to}: ${list}${bad.length > 10 ? ', ...' : ''}; allowed from ${m.from.join(' or ')}.`] });
    }
    for (const d of docs) {
      const set: Record<string, unknown> = { status: m.to };
      if (m.active !== undefined) set.active = m.active;
      if (m.to === 'APPROVED' && !d.identifier) set.identifier = await familyIdentifier(ctx.store, d);
      if (entry) set.comment = [...((d.comment as unknown[] | undefined) ?? []), entry];
      await store.update('molecules', d.id, set);
    }
    await store.flush(ctx.user, `action:${uriKey}`);
    return docs.length;
  });
}

/** Stores one molecule's new derivation unless its structure changed or another molecule holds the key. */
async function storeDerivation(ctx: ActionCtx, d: Doc, der: Awaited<ReturnType<Derive>>): Promise<string | null> {
  return ctx.store.exclusive(async () => {
    const store = tracking(ctx.store);
    const cur = (await store.findByIds('molecules', [d.id]))[0];
    // Deleted, or given a new structure meanwhile (that mutate derived it already).
    if (!cur || cur.canonical_smiles !== d.canonical_smiles) return null;
    const dup = await ctx.store.findOne('molecules', { standard_inchi_key: der.standard_inchi_key });
    if (dup && dup.id !== d.id) return `its structure now has the InChIKey of molecule ${dup.identifier ?? dup.id} (${der.standard_inchi_key}); not updated`;
    await store.update('molecules', d.id, derivedFields(der));
    if (!cur.identifier) await store.update('molecules', d.id, { identifier: await familyIdentifier(ctx.store, { id: d.id, standard_inchi_key: der.standard_inchi_key, standard_inchi: der.standard_inchi }) });
    await store.setProperties(d.id, { ...der.properties });
    // the stereo families it left and joined
    await refreshMoleculeCounts(store, touchBlockOf(touchBlockOf(touchedNone(), cur), { standard_inchi_key: der.standard_inchi_key }));
    await store.flush(ctx.user, 'action:recompute-properties');
    return null;
  });
}

/** Queues a derivation for every selected molecule with a structure; answers with how many. */
async function recompute(ids: number[], ctx: ActionCtx): Promise<number> {
  const docs = (await ctx.store.find('molecules', { id: { $in: ids } }, { fields: ['canonical_smiles', 'identifier'] })).filter(
    (d) => typeof d.canonical_smiles === 'string' && d.canonical_smiles.trim() !== '',
  );
  if (!docs.length) return 0;
  const log = ctx.background.log;
  ctx.background.run('recompute-properties', async (signal) => {
    let done = 0;
    let failed = 0;
    await eachLimited(docs, RECOMPUTE_LANES, signal, async (d) => {
      const name = `molecule ${d.identifier ?? d.id} (id ${d.id})`;
      let problem: string | null;
      try {
        problem = await storeDerivation(ctx, d, await ctx.derive({ structure: d.canonical_smiles as string }));
      } catch (err) {
        const ae = AppError.from(err);
        // A stored structure that no longer parses is reported; a worker fault ends the task.
        if (!ae?.isClientError) throw err;
        problem = typeof ae.detail === 'string' ? ae.detail : JSON.stringify(ae.detail);
      }
      if (problem) {
        failed++;
        log.warn(`recompute-properties: ${name}: ${problem}`);
      } else done++;
    });
    log.info(`recompute-properties: ${done} of ${docs.length} molecules recomputed, ${failed} failed${signal.aborted ? ' (stopped at shutdown)' : ''}`);
  });
  return docs.length;
}

/** `molecule_count` of organisms or collections; the kept fields of molecules (and their stereo families). */
async function refreshCounts(r: ResourceDef, ids: number[], ctx: ActionCtx) {
  const touched = touchedNone();
  const field = r.name === 'molecules' ? 'molecules' : r.name === 'organisms' ? 'organism_ids' : 'collection_ids';
  for (const id of ids) touched[field].add(id);
  await ctx.store.exclusive(() => refreshMoleculeCounts(ctx.store, touched));
  return ids.length;
}

export async function runAction(r: ResourceDef, uriKey: string, body: unknown, ctx: ActionCtx) {
  const action = r.actions.find((a) => a.uriKey === uriKey);
  if (!action) throw new HttpError(404, `The action ${uriKey} does not exist on ${r.name}.`);
  const e = new Errors();
  const b = isObj(body) ? body : {};
  const fields: Record<string, unknown> = {};
  const s = validateSearch(r, b.search, 'search', e);
  if (b.fields !== undefined && !Array.isArray(b.fields)) e.add('fields', 'The fields field must be an array.');
  for (const [n, f] of (Array.isArray(b.fields) ? b.fields : []).entries()) {
    const name = isObj(f) ? f.name : undefined;
    if (typeof name !== 'string' || !Object.hasOwn(action.fields, name)) e.add(`fields.${n}.name`, `The selected fields.${n}.name is invalid.`);
    // The declared `string` rule, with Laravel's message (a present null fails it too).
    else if ('value' in f && typeof f.value !== 'string') e.add(`fields.${n}.value`, `The fields.${n}.value field must be a string.`);
    else if (typeof f.value === 'string' && f.value.length > 1000) e.add(`fields.${n}.value`, `The fields.${n}.value field must not be greater than 1000 characters.`);
    else fields[name] = f.value;
  }
  e.throwIfAny();
  if (!canRun(ctx.user, action)) throw new HttpError(403, 'This action is unauthorized.');
  const ids = await matchingIds(r, s, ctx);
  let impacted: number;
  if (r.name === 'reports') {
    const run = (res: ResourceName, b: unknown, tags: string) => mutate(RESOURCES[res], b, { ...ctx, tags });
    impacted = await reportAction(uriKey, ids, fields, { ...ctx, mutate: run });
  } else if (MOVES[uriKey]) impacted = await move(uriKey, ids, fields.reason, ctx);
  else if (uriKey === 'recompute-properties') impacted = await recompute(ids, ctx);
  else impacted = await refreshCounts(r, ids, ctx);
  return { data: { impacted } };
}
