/**
 * Mutate: validate everything (422), derive chemistry for every molecule whose structure is set
 * (422 on unparsable or duplicate structures), authorise (403), then write under the store lock
 * with an undo log (all or nothing), and keep `molecule_count` of the touched organisms and
 * collections and the kept fields of the touched molecules (counts.ts) up to date.
 */
import { refreshMoleculeCounts, touchBlockOf, touchedNone } from './counts.ts';
import { dedupeSynonyms } from './synonyms.ts';
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import { derivedFields, type Derive } from './derived.ts';
import { allWrites, parseMutate, type Op, type RelOp } from './mutate-parse.ts';
import { can } from '../auth/policy.ts';
import { hashUserPasswords } from '../auth/users.ts';
import { RESOURCES, recordDefaults, type ResourceDef } from '../schema/resources.ts';
import { familyIdentifier } from './identifiers.ts';
import type { CatalogStore, CollectionName, Doc, LinkField } from '../store/types.ts';
import { Errors, HttpError, type CatalogUser } from '../schema/types.ts';
import { AppError } from '../../../shared/errors.ts';
import { tracking } from '../audit/audit.ts';
import { authorizeReportWrites } from '../reports/reports.ts';

export type { Derive } from './derived.ts';
type Rec = Record<string, unknown>;
/** `tags`: what the audit entries name as the writer (default `mutate`; an approved report `report:<id>`). */
type Ctx = { store: CatalogStore; user?: CatalogUser; derive: Derive; tags?: string };

/** A place in the request that sets a molecule's structure, and the molecules it may belong to. */
interface Site {
  w: Op | RelOp;
  key: string;
  owners: number[];
}

/**
 * Whether an operation writes its `attributes` to records: create and update, and, as in Lomkit
 * (which saves `attributes` on each related record before toggling or syncing it), toggle and
 * sync that carry some. attach and detach refuse attributes at validation.
 */
function writesAttributes(w: Op | RelOp): boolean {
  if (w.operation === 'create' || w.operation === 'update') return true;
  return (w.operation === 'toggle' || w.operation === 'sync') && Object.keys(w.attributes).length > 0;
}

function structureSites(ops: Op[]): Site[] {
  const out: Site[] = [];
  for (const w of allWrites(ops)) {
    const smiles = w.attributes.canonical_smiles;
    if (w.target.name !== 'molecules' || !writesAttributes(w)) continue;
    // A blank string is a site too: it is refused, never stored beside the old derived fields.
    if (typeof smiles !== 'string') continue;
    const owners = 'rel' in w ? (w.operation === 'create' ? [] : w.keys) : w.key !== undefined ? [w.key] : [];
    out.push({ w, key: `${w.path}.attributes.canonical_smiles`, owners });
  }
  return out;
}

async function deriveAll(sites: Site[], derive: Derive, e: Errors) {
  await Promise.all(
    sites.map(async (s) => {
      if (s.owners.length > 1) return e.add(s.key, `The ${s.key} field cannot set one structure on ${s.owners.length} molecules.`);
      if (!(s.w.attributes.canonical_smiles as string).trim()) return e.add(s.key, `The ${s.key} field must be a structure (SMILES or molblock), not blank.`);
      try {
        s.w.derived = await derive({ structure: s.w.attributes.canonical_smiles as string });
      } catch (err) {
        const ae = AppError.from(err);
        if (!ae || ae.status !== 422) throw err;
        e.add(s.key, typeof ae.detail === 'string' ? ae.detail : `The ${s.key} field is not a readable structure.`);
      }
    }),
  );
}

/** A derived InChIKey held by another molecule, or set twice in the request, is a 422. */
async function checkDuplicates(sites: Site[], store: CatalogStore, e: Errors) {
  const seen = new Map<string, string>();
  for (const s of sites) {
    const key = s.w.derived?.standard_inchi_key;
    if (!key) continue;
    const dup = await store.findOne('molecules', { standard_inchi_key: key });
    if (dup && !s.owners.includes(dup.id)) e.add(s.key, `The structure is already in the catalog as molecule ${dup.identifier ?? dup.id} (id ${dup.id}, InChIKey ${key}).`);
    else if (seen.has(key)) e.add(s.key, `The structure duplicates ${seen.get(key)} (InChIKey ${key}).`);
    seen.set(key, s.w.path);
  }
}

function authorize(ops: Op[], user: CatalogUser | undefined) {
  for (const w of allWrites(ops)) {
    // attach/detach/toggle/sync need `view` on the related record, which every role has; a toggle
    // or sync that writes attributes needs `update` (Lomkit asks only `view` there).
    const ability = w.operation === 'create' ? 'create' : 'update';
    // an update of an owner-scoped record (a report) is decided with the record: authorizeReportWrites
    if (ability === 'update' && w.target.schema.ownerField) continue;
    if (writesAttributes(w) && !can(user, ability, undefined, w.target)) throw new HttpError(403, 'This action is unauthorized.');
  }
}

export async function mutate(r: ResourceDef, body: unknown, ctx: Ctx) {
  const ops = await parseMutate(r, body, ctx.store, ctx.user);
  const sites = structureSites(ops);
  const e = new Errors();
  await deriveAll(sites, ctx.derive, e);
  e.throwIfAny();
  await checkDuplicates(sites, ctx.store, e);
  e.throwIfAny();
  authorize(ops, ctx.user);
  if (r.name === 'reports') await authorizeReportWrites(ops, ctx.store, ctx.user);
  if (r.name === 'users') await hashUserPasswords(ops);
  return ctx.store.exclusive(async () => {
    // Derivation ran outside the lock: a concurrent request may have stored the structure since.
    await checkDuplicates(sites, ctx.store, e);
    e.throwIfAny();
    const audited = tracking(ctx.store);
    const done = await new Writer(audited).run(ops);
    await audited.flush(ctx.user, ctx.tags ?? 'mutate');
    return done;
  });
}

/** A new record's fields before its attributes: the resource's declared defaults (schema/). */
export function defaults(r: ResourceDef): Rec {
  return r.collection && r.collection !== 'tokens' && r.collection !== 'meta' ? recordDefaults(r.collection) : {};
}

/** The writes of one request, with an undo log of every touched document. */
class Writer {
  private readonly undo = new Map<string, { coll: CollectionName; before: Doc | null; id: number }>();
  private readonly touched = touchedNone();

  constructor(private readonly store: CatalogStore) {}

  async run(ops: Op[]) {
    const created: number[] = [];
    const updated: number[] = [];
    try {
      for (const op of ops) {
        const id = await this.record(op.target, op.operation, op.key, op.attributes, op.derived);
        (op.operation === 'create' ? created : updated).push(id);
        for (const ro of op.relations) await this.relation(ro, id);
      }
    } catch (err) {
      await this.rollback();
      throw err;
    }
    await refreshMoleculeCounts(this.store, this.touched);
    return { created, updated };
  }

  private async rollback() {
    for (const u of [...this.undo.values()].reverse()) {
      if (u.before) await this.store.replace(u.coll, u.before);
      else await this.store.remove(u.coll, [u.id]);
    }
  }

  private async touch(coll: CollectionName, id: number) {
    const k = `${coll}:${id}`;
    if (!this.undo.has(k)) this.undo.set(k, { coll, id, before: (await this.store.findByIds(coll, [id]))[0] ?? null });
  }

  /** Creates or updates one record; a molecule with a derived structure gets its chemistry too. */
  private async record(r: ResourceDef, operation: string, key: number | undefined, attrs: Rec, derived?: DerivedMolecule): Promise<number> {
    const coll = r.collection!;
    const set = derived ? { ...attrs, ...derivedFields(derived) } : { ...attrs };
    if (coll === 'molecules' && Array.isArray(set.synonyms)) set.synonyms = dedupeSynonyms(set.synonyms as string[]);
    let id: number;
    if (operation === 'create') {
      id = (await this.store.insert(coll, { ...defaults(r), ...set })).id;
      this.undo.set(`${coll}:${id}`, { coll, id, before: null });
    } else {
      id = key!;
      await this.touch(coll, id);
      // a new structure may move the molecule to another stereo family: its old one is refreshed too
      if (coll === 'molecules' && derived) touchBlockOf(this.touched, this.undo.get(`${coll}:${id}`)?.before);
      await this.store.update(coll, id, set);
    }
    if (coll === 'molecules') this.touched.molecules.add(id);
    if (derived) {
      const cur = (await this.store.findByIds('molecules', [id]))[0];
      if (!cur.identifier) await this.store.update('molecules', id, { identifier: await familyIdentifier(this.store, cur) });
      await this.store.setProperties(id, { ...derived.properties });
    }
    return id;
  }

  private async linked(m: number, field: LinkField, o: number) {
    return ((await this.store.findByIds('molecules', [m]))[0]?.[field] as number[] | undefined)?.includes(o) ?? false;
  }

  private async link(m: number, field: LinkField, o: number, on: boolean) {
    await this.touch('molecules', m);
    if (on) await this.store.link(m, field, [o]);
    else await this.store.unlink(m, field, [o]);
    this.touched[field].add(o);
    this.touched.molecules.add(m);
  }

  private async relation(ro: RelOp, parent: number) {
    const { rel } = ro;
    const target = RESOURCES[rel.target];
    if (rel.storage === 'embedded') {
      await this.touch('molecules', parent);
      await this.store.setProperties(parent, ro.attributes);
      return;
    }
    const field = rel.field!;
    let keys = ro.keys;
    if (ro.operation === 'create') keys = [await this.record(target, 'create', undefined, ro.attributes, ro.derived)];
    else if (writesAttributes(ro)) for (const k of keys) await this.record(target, 'update', k, ro.attributes, ro.derived);
    // (molecule, other) pairs: `local` = the parent is the molecule, `remote` = the keys are molecules
    const pairs = (ks: number[]) => ks.map((k) => (rel.storage === 'local' ? [parent, k] : [k, parent]) as [number, number]);
    switch (ro.operation) {
      case 'create':
      case 'update':
      case 'attach':
        for (const [m, o] of pairs(keys)) await this.link(m, field, o, true);
        break;
      case 'detach':
        for (const [m, o] of pairs(keys)) await this.link(m, field, o, false);
        break;
      case 'toggle':
        for (const [m, o] of pairs(keys)) await this.link(m, field, o, !(await this.linked(m, field, o)));
        break;
      case 'sync': {
        if (!ro.without_detaching) {
          const current =
            rel.storage === 'local'
              ? (((await this.store.findByIds('molecules', [parent]))[0]?.[field] as number[] | undefined) ?? [])
              : (await this.store.find('molecules', { [field]: parent }, { fields: ['id'] })).map((d) => d.id);
          for (const [m, o] of pairs(current.filter((c) => !keys.includes(c)))) await this.link(m, field, o, false);
        }
        for (const [m, o] of pairs(keys)) await this.link(m, field, o, true);
        break;
      }
    }
    for (const nested of ro.relations) for (const k of keys) await this.relation(nested, k);
  }
}
