/**
 * Mutate: validate everything (422), derive chemistry for molecules (422 on unparsable or
 * duplicate structures), authorise (403), then write under the store lock with an undo log
 * (all or nothing).
 */
import type { DeriveInput, DerivedMolecule } from './derived.ts';
import { can } from './policy.ts';
import { RESOURCES, STATUSES, relation, stored, type FieldType, type RelationDef, type ResourceDef } from './resources.ts';
import { nextIdentifier } from './store/open.ts';
import type { CatalogStore, CollectionName, Doc } from './store/types.ts';
import { Errors, HttpError, ValidationError, type CatalogUser } from './types.ts';
import { hasOperatorKeys } from './validate-search.ts';
import { AppError } from '../errors.ts';

export type Derive = (i: DeriveInput) => Promise<DerivedMolecule>;
type Rec = Record<string, unknown>;
const isObj = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

const REL_OPS = ['create', 'update', 'attach', 'detach', 'toggle', 'sync'];

interface RelOp {
  rel: RelationDef;
  operation: string;
  keys: number[];
  attributes: Rec;
  without_detaching: boolean;
}
interface Op {
  index: number;
  operation: 'create' | 'update';
  key?: number;
  attributes: Rec;
  relations: RelOp[];
  derived?: DerivedMolecule;
}

function checkValue(t: FieldType, v: unknown, k: string, e: Errors): unknown {
  if (v === null) return null;
  if (hasOperatorKeys(v)) return e.add(k, `The ${k} field must not contain operators.`);
  switch (t) {
    case 'int':
      return Number.isInteger(v) ? v : e.add(k, `The ${k} field must be an integer.`);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) / 100 : e.add(k, `The ${k} field must be a number.`);
    case 'bool':
      return typeof v === 'boolean' ? v : e.add(k, `The ${k} field must be true or false.`);
    case 'status':
      return STATUSES.includes(v as never) ? v : e.add(k, `The selected ${k} is invalid.`);
    case 'string[]':
      if (typeof v === 'string') return [v];
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : e.add(k, `The ${k} field must be a list of strings.`);
    default:
      return typeof v === 'string' ? v : e.add(k, `The ${k} field must be a string.`);
  }
}

/** Attribute map → stored field map, with type checks; `id` is never writable. */
function attributes(r: ResourceDef, raw: unknown, k: string, e: Errors): Rec {
  if (raw === undefined) return {};
  if (!isObj(raw)) {
    e.add(k, `The ${k} field must be an array.`);
    return {};
  }
  const out: Rec = {};
  for (const [f, v] of Object.entries(raw)) {
    if (f === 'id' || !Object.hasOwn(r.fields, f)) {
      e.add(k, `The ${f} key is not valid for the ${k} field.`);
      continue;
    }
    out[stored(r, f)] = checkValue(r.fields[f], v, `${k}.${f}`, e);
  }
  return out;
}

async function existing(store: CatalogStore, coll: CollectionName, keys: number[]): Promise<Set<number>> {
  return new Set((await store.find(coll, { id: { $in: keys } }, { fields: ['id'] })).map((d) => d.id));
}

async function relOps(r: ResourceDef, raw: unknown, k: string, e: Errors, store: CatalogStore): Promise<RelOp[]> {
  if (raw === undefined || (Array.isArray(raw) && !raw.length)) return [];
  if (!isObj(raw)) {
    e.add(k, `The ${k} field must be an array.`);
    return [];
  }
  const out: RelOp[] = [];
  for (const [name, val] of Object.entries(raw)) {
    const rel = relation(r, name);
    if (!rel) {
      e.add(k, `The ${name} key is not valid for the ${k} field.`);
      continue;
    }
    const items = rel.kind === 'HasOne' ? [[`${k}.${name}`, val]] : Array.isArray(val) ? val.map((v, n) => [`${k}.${name}.${n}`, v]) : [[`${k}.${name}`, val]];
    const target = RESOURCES[rel.target];
    for (const [p, item] of items as [string, unknown][]) {
      if (!isObj(item)) {
        e.add(p, `The ${p} field must be an array.`);
        continue;
      }
      const op = item.operation as string;
      const allowed = rel.storage === 'embedded' ? ['create', 'update'] : REL_OPS;
      if (!allowed.includes(op)) {
        e.add(`${p}.operation`, `The selected ${p}.operation is invalid.`);
        continue;
      }
      const keys = item.key === undefined || item.key === null ? [] : Array.isArray(item.key) ? item.key : [item.key];
      if (op === 'create' && item.key !== undefined) e.add(`${p}.key`, `The ${p}.key field is prohibited when ${p}.operation is create.`);
      if (op !== 'create' && rel.storage !== 'embedded' && !keys.length) e.add(`${p}.key`, `The ${p}.key field is required when ${p}.operation is ${op}.`);
      if (keys.some((x) => !Number.isInteger(x))) e.add(`${p}.key`, `The selected ${p}.key is invalid.`);
      else if (rel.storage !== 'embedded' && keys.length) {
        const have = await existing(store, target.collection!, keys as number[]);
        if (keys.some((x) => !have.has(x as number))) e.add(`${p}.key`, `The selected ${p}.key is invalid.`);
      }
      if ((op === 'attach' || op === 'detach') && item.attributes !== undefined) e.add(`${p}.attributes`, `The ${p}.attributes field is prohibited when ${p}.operation is ${op}.`);
      if (item.without_detaching !== undefined && op !== 'sync') e.add(`${p}.without_detaching`, `The ${p}.without_detaching field is prohibited unless ${p}.operation is in sync.`);
      if (isObj(item.pivot)) for (const pk of Object.keys(item.pivot)) e.add(`${p}.pivot`, `The ${pk} key is not valid for the ${p}.pivot field.`);
      out.push({ rel, operation: op, keys: keys as number[], attributes: attributes(target, item.attributes, `${p}.attributes`, e), without_detaching: item.without_detaching === true });
    }
  }
  return out;
}

/** Validation, derivation and authorisation of a whole mutate request, then the writes. */
export async function mutate(r: ResourceDef, body: unknown, ctx: { store: CatalogStore; user?: CatalogUser; derive: Derive }) {
  const e = new Errors();
  const raw = isObj(body) ? body.mutate : undefined;
  if (raw === undefined || raw === null || (Array.isArray(raw) && !raw.length)) e.add('mutate', 'The mutate field is required.');
  else if (!Array.isArray(raw)) e.add('mutate', 'The mutate field must be an array.');
  e.throwIfAny();
  const ops: Op[] = [];
  for (const [n, item] of (raw as unknown[]).entries()) {
    const k = `mutate.${n}`;
    const o = isObj(item) ? item : {};
    if (o.operation !== 'create' && o.operation !== 'update') e.add(`${k}.operation`, `The selected ${k}.operation is invalid.`);
    if (o.operation === 'update' && o.key === undefined) e.add(`${k}.key`, `The ${k}.key field must be present when ${k}.operation is update.`);
    if (o.operation === 'create' && o.key !== undefined) e.add(`${k}.key`, `The ${k}.key field is prohibited when ${k}.operation is create.`);
    if (o.operation === 'update' && o.key !== undefined) {
      if (!Number.isInteger(o.key) || !(await existing(ctx.store, r.collection!, [o.key as number])).size) e.add(`${k}.key`, `The selected ${k}.key is invalid.`);
    }
    ops.push({
      index: n,
      operation: o.operation as Op['operation'],
      key: o.key as number | undefined,
      attributes: attributes(r, o.attributes, `${k}.attributes`, e),
      relations: await relOps(r, o.relations, `${k}.relations`, e, ctx.store),
    });
  }
  e.throwIfAny();
  if (r.name === 'molecules') await deriveAll(ops, ctx, e);
  e.throwIfAny();
  for (const op of ops) {
    if (!can(ctx.user, op.operation)) throw new HttpError(403, 'This action is unauthorized.');
    for (const ro of op.relations) {
      if ((ro.operation === 'create' || ro.operation === 'update') && !can(ctx.user, ro.operation)) throw new HttpError(403, 'This action is unauthorized.');
    }
  }
  return ctx.store.exclusive(() => write(r, ops, ctx.store));
}

async function deriveAll(ops: Op[], ctx: { store: CatalogStore; derive: Derive }, e: Errors) {
  const seen = new Map<string, number>();
  for (const op of ops) {
    const smiles = op.attributes.canonical_smiles;
    if (typeof smiles !== 'string' || !smiles.trim()) continue;
    const k = `mutate.${op.index}.attributes.canonical_smiles`;
    try {
      op.derived = await ctx.derive({ structure: smiles });
    } catch (err) {
      const ae = AppError.from(err);
      if (!ae || ae.status !== 422) throw err;
      e.add(k, typeof ae.detail === 'string' ? ae.detail : `The ${k} field is not a readable structure.`);
      continue;
    }
    const key = op.derived.standard_inchi_key;
    const dup = await ctx.store.findOne('molecules', { standard_inchi_key: key });
    if (dup && dup.id !== op.key) e.add(k, `The structure is already in the catalog as molecule ${dup.identifier ?? dup.id} (id ${dup.id}, InChIKey ${key}).`);
    else if (seen.has(key)) e.add(k, `The structure duplicates mutate.${seen.get(key)} (InChIKey ${key}).`);
    seen.set(key, op.index);
  }
}

/** The writes, with an undo log of every touched document. */
async function write(r: ResourceDef, ops: Op[], store: CatalogStore) {
  const undo = new Map<string, { coll: CollectionName; before: Doc | null; id: number }>();
  const touch = async (coll: CollectionName, id: number) => {
    const k = `${coll}:${id}`;
    if (!undo.has(k)) undo.set(k, { coll, id, before: (await store.findByIds(coll, [id]))[0] ?? null });
  };
  const created: number[] = [];
  const updated: number[] = [];
  try {
    for (const op of ops) {
      const coll = r.collection!;
      const attrs: Rec = { ...op.attributes };
      if (op.derived) {
        const d = op.derived;
        Object.assign(attrs, {
          standard_inchi: d.standard_inchi,
          standard_inchi_key: d.standard_inchi_key,
          canonical_smiles: d.canonical_smiles,
          has_stereo: d.has_stereo,
          murcko_framework: d.murcko_framework,
        });
      }
      let id: number;
      if (op.operation === 'create') {
        const doc = await store.insert(coll, { ...defaults(r), ...attrs });
        id = doc.id;
        undo.set(`${coll}:${id}`, { coll, id, before: null });
        created.push(id);
      } else {
        id = op.key!;
        await touch(coll, id);
        await store.update(coll, id, attrs);
        updated.push(id);
      }
      if (op.derived) {
        const cur = (await store.findByIds('molecules', [id]))[0];
        if (!cur.identifier) await store.update('molecules', id, { identifier: await nextIdentifier(store) });
        await store.setProperties(id, { ...op.derived.properties });
      }
      for (const ro of op.relations) await relWrite(ro, id, store, touch, undo);
    }
  } catch (err) {
    for (const u of [...undo.values()].reverse()) {
      if (u.before) await store.replace(u.coll, u.before);
      else await store.remove(u.coll, [u.id]);
    }
    throw err;
  }
  return { created, updated };
}

function defaults(r: ResourceDef): Rec {
  if (r.name === 'molecules')
    return {
      status: 'DRAFT', active: false, has_variants: false, has_stereo: false, is_tautomer: false, is_parent: false, is_placeholder: false,
      name_trust_level: 0, annotation_level: 0, variants_count: 0, organism_ids: [], citation_ids: [], collection_ids: [], properties: null,
    };
  if (r.name === 'organisms') return { molecule_count: 0 };
  return {};
}

async function relWrite(
  ro: RelOp,
  parent: number,
  store: CatalogStore,
  touch: (c: CollectionName, id: number) => Promise<void>,
  undo: Map<string, { coll: CollectionName; before: Doc | null; id: number }>,
) {
  const { rel } = ro;
  const target = RESOURCES[rel.target];
  if (rel.storage === 'embedded') {
    await touch('molecules', parent);
    await store.setProperties(parent, ro.attributes);
    return;
  }
  let keys = ro.keys;
  if (ro.operation === 'create') {
    const doc = await store.insert(target.collection!, { ...defaults(target), ...ro.attributes });
    undo.set(`${target.collection}:${doc.id}`, { coll: target.collection!, id: doc.id, before: null });
    keys = [doc.id];
  } else if (ro.operation === 'update') {
    for (const k of keys) {
      await touch(target.collection!, k);
      await store.update(target.collection!, k, ro.attributes);
    }
  }
  // (molecule, other) pairs; `local`: parent is the molecule, `remote`: the keys are molecules
  const pairs = (ks: number[]) => ks.map((k) => (rel.storage === 'local' ? [parent, k] : [k, parent]) as [number, number]);
  const linked = async (m: number, o: number) => ((await store.findByIds('molecules', [m]))[0]?.[rel.field!] as number[] | undefined)?.includes(o) ?? false;
  const link = async (m: number, o: number, on: boolean) => {
    await touch('molecules', m);
    if (on) await store.link(m, rel.field!, [o]);
    else await store.unlink(m, rel.field!, [o]);
  };
  switch (ro.operation) {
    case 'create':
    case 'update':
    case 'attach':
      for (const [m, o] of pairs(keys)) await link(m, o, true);
      break;
    case 'detach':
      for (const [m, o] of pairs(keys)) await link(m, o, false);
      break;
    case 'toggle':
      for (const [m, o] of pairs(keys)) await link(m, o, !(await linked(m, o)));
      break;
    case 'sync': {
      if (!ro.without_detaching) {
        const current =
          rel.storage === 'local'
            ? (((await store.findByIds('molecules', [parent]))[0]?.[rel.field!] as number[] | undefined) ?? [])
            : (await store.find('molecules', { [rel.field!]: parent }, { fields: ['id'] })).map((d) => d.id);
        for (const [m, o] of pairs(current.filter((c) => !keys.includes(c)))) await link(m, o, false);
      }
      for (const [m, o] of pairs(keys)) await link(m, o, true);
      break;
    }
  }
}
