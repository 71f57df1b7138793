/**
 * Store conformance: the same cases on every store kind. `embedded` (the default store);
 * `mingo`, MongoStore's own code over the in-process stand-in for MongoDB's driver
 * (test/helpers/mingo-mongo.ts: every filter, sort, projection, pipeline, update and index
 * MongoStore builds is executed, unique indexes enforced); `mongo`, a real server where MONGO_URL
 * is set (a named skip otherwise). Each case's answer is compared with the embedded store's on the
 * same data, and with the answer written in the case where it is obvious (conformance-data.ts:
 * reads; below: writes, unique indexes, index definitions).
 */
import t from 'tap';
import mongoose from 'mongoose';
import { MongoStore } from '../../api/catalog/store/mongo.ts';
import { nextIdentifier } from '../../api/catalog/store/open.ts';
import { COLLECTIONS, type CatalogStore } from '../../api/catalog/store/types.ts';
import { storeIndexes } from '../../api/catalog/schema/resources.ts';
import { MingoConnection } from '../helpers/mingo-mongo.ts';
import { storeVariant } from '../helpers/skip.ts';
import { makeStore, storeKinds, type StoreKind } from './helper.ts';
import { generated, generatedCases, moleculeCases, MOLECULES, ORGANISMS, type Case } from './conformance-data.ts';

type Tap = Parameters<typeof makeStore>[0];
type IndexList = { name: string; key: Record<string, number>; unique?: boolean; sparse?: boolean }[];

/** A store of the kind, and (MongoDB kinds) the index definitions its collections hold and a second store opened on the same database. */
async function open(t: Tap, kind: StoreKind): Promise<{ store: CatalogStore; indexes?: (coll: string) => Promise<IndexList>; reopen?: () => Promise<CatalogStore> }> {
  if (kind === 'mingo') {
    const conn = new MingoConnection();
    const store = await MongoStore.over(conn);
    t.teardown(() => store.close());
    return { store, indexes: (c) => conn.raw(c).indexes(), reopen: () => MongoStore.over(conn) };
  }
  if (kind === 'mongo') {
    const url = new URL(process.env.MONGO_URL!);
    url.pathname = `/natprod_conformance_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const store = await MongoStore.open(url.toString());
    const admin = await mongoose.createConnection(url.toString()).asPromise();
    const again: CatalogStore[] = [];
    t.teardown(async () => {
      for (const s of [store, ...again]) await s.close();
      await admin.dropDatabase();
      await admin.close();
    });
    const reopen = async () => {
      const s = await MongoStore.open(url.toString());
      again.push(s);
      return s;
    };
    return { store, indexes: async (c) => (await admin.db!.collection(c).indexes()) as IndexList, reopen };
  }
  return { store: await makeStore(t, 'embedded') };
}

async function seed(s: CatalogStore) {
  await s.insertMany('organisms', ORGANISMS);
  await s.insertMany('molecules', MOLECULES);
  await s.insertMany('reports', generated());
}

/** The writes, in order, on the seeded store (each case sees the ones before it). */
function writeCases(): Case[] {
  const one = (s: CatalogStore, coll: 'molecules' | 'citations', id: number) => s.findOne(coll, { id });
  const list = async (s: CatalogStore, id: number, field: string) => {
    const d = await s.findOne('molecules', { id });
    return d && field in d ? d[field] : 'missing';
  };
  const { mixed, ...six } = MOLECULES[5];
  void mixed;
  return [
    { name: 'insertMany: ids from the counter', run: (s) => s.insertMany('citations', [{ doi: '10.1/a', title: 'A' }, { doi: '10.1/b' }]), want: [{ doi: '10.1/a', title: 'A', id: 1 }, { doi: '10.1/b', id: 2 }] },
    { name: 'insertMany: none', run: (s) => s.insertMany('citations', []), want: [] },
    { name: 'insert: the document with its id', run: (s) => s.insert('citations', { doi: null, title: 'no doi' }), want: { doi: null, title: 'no doi', id: 3 } },
    { name: 'insert: stored as returned', run: (s) => one(s, 'citations', 3), want: { doi: null, title: 'no doi', id: 3 } },
    { name: 'upsert: an existing document is updated', run: (s) => s.upsert('organisms', 'name', 'Vitis vinifera', { rank: 'species' }), want: { created: false, doc: { id: 4, ...ORGANISMS[3], rank: 'species' } } },
    { name: 'upsert: a new one is created', run: (s) => s.upsert('organisms', 'name', 'Quercus', { rank: 'genus' }), want: { created: true, doc: { rank: 'genus', name: 'Quercus', id: 5 } } },
    { name: 'update: $set and $unset', run: (s) => s.update('molecules', 6, { name: 'fifty', annotation_level: 1 }, ['mixed']), want: { ...six, id: 6, name: 'fifty', annotation_level: 1 } },
    { name: 'update: the id is never changed', run: async (s) => (await s.update('molecules', 6, { id: 99 }))?.id, want: 6 },
    { name: 'update: an absent document', run: (s) => s.update('molecules', 999, { name: 'x' }), want: null },
    { name: 'update: nothing to change', run: (s) => s.update('molecules', 7, {}), want: { id: 7, ...MOLECULES[6] } },
    { name: 'update: a dotted path', run: async (s) => (await s.update('molecules', 1, { 'properties.alogp': 1.5 }))?.properties, want: { ...(MOLECULES[0].properties as object), alogp: 1.5 } },
    { name: 'replace: keeps the id', run: async (s) => (await s.replace('molecules', { id: 2, name: 'replaced', organism_ids: [4] }), one(s, 'molecules', 2)), want: { id: 2, name: 'replaced', organism_ids: [4] } },
    { name: 'replace: an absent id is inserted', run: async (s) => (await s.replace('citations', { id: 50, doi: '10.1/z' }), [await one(s, 'citations', 50), await s.count('citations', {})]), want: [{ id: 50, doi: '10.1/z' }, 4] },
    { name: 'link: no duplicates', run: async (s) => (await s.link(3, 'organism_ids', [4, 1, 4]), list(s, 3, 'organism_ids')), want: [4, 1] },
    { name: 'link: new ids appended', run: async (s) => (await s.link(3, 'organism_ids', [1, 2]), list(s, 3, 'organism_ids')), want: [4, 1, 2] },
    { name: 'link: no ids', run: async (s) => (await s.link(3, 'organism_ids', []), list(s, 3, 'organism_ids')), want: [4, 1, 2] },
    { name: 'link: a list the molecule lacks', run: async (s) => (await s.link(7, 'collection_ids', [2]), list(s, 7, 'collection_ids')), want: [2] },
    { name: 'unlink: present and absent ids', run: async (s) => (await s.unlink(3, 'organism_ids', [4, 99]), list(s, 3, 'organism_ids')), want: [1, 2] },
    // Molecule 9 is removed below: its list is compared here only (the embedded store writes [], MongoDB leaves it out).
    { name: 'unlink: a list the molecule lacks', run: async (s) => (await s.unlink(9, 'citation_ids', [1]), list(s, 9, 'citation_ids')), differs: { embedded: [], mongo: 'missing', why: 'the embedded store writes what is left, MongoDB $pull leaves an absent list absent' } },
    { name: 'setProperties: a new record gets an id', run: async (s) => (await s.setProperties(7, { molecular_weight: 10 }), list(s, 7, 'properties')), want: { molecular_weight: 10, id: 1 } },
    { name: 'setProperties: merged, id kept', run: async (s) => (await s.setProperties(7, { alogp: 2 }), list(s, 7, 'properties')), want: { molecular_weight: 10, alogp: 2, id: 1 } },
    { name: 'setProperties: a record without id gets one', run: async (s) => (await s.setProperties(2, { x: 1 }), list(s, 2, 'properties')), want: { x: 1, id: 2 } },
    { name: 'setProperties: null clears', run: async (s) => (await s.setProperties(7, null), list(s, 7, 'properties')), want: null },
    { name: 'setProperties: an absent molecule', run: async (s) => (await s.setProperties(999, { x: 1 }), s.count('molecules', {})), want: 10 },
    { name: 'remove: by ids, unknown ones ignored', run: async (s) => [await s.remove('molecules', [9, 10, 999]), await s.count('molecules', {})], want: [2, 8] },
    { name: 'remove: none', run: (s) => s.remove('molecules', []), want: 0 },
    { name: 'insert after remove: ids are not reused', run: async (s) => (await s.insert('molecules', { name: 'new' })).id, want: 11 },
    { name: 'counters: from 1, one per name', run: async (s) => [await s.nextCounter('a'), await s.nextCounter('a'), await s.nextCounter('b'), await nextIdentifier(s)], want: [1, 2, 1, 'CNP0000001'] },
    { name: 'counters: atLeast raises a counter, never lowers it', run: async (s) => [await s.nextCounter('c'), await s.nextCounter('c', 50), await s.nextCounter('c'), await s.nextCounter('c', 10)], want: [1, 50, 51, 52] },
    { name: 'exclusive: the value of fn', run: (s) => s.exclusive(async () => s.count('organisms', {})), want: 5 },
    {
      name: 'undefined and null are queried alike',
      run: async (s) => (await s.insert('organisms', { name: 'U', iri: undefined }), [await s.count('organisms', { name: 'U', $or: [{ iri: null }, { iri: { $exists: false } }] }), await s.count('organisms', { name: 'U', iri: { $exists: true, $ne: null } })]),
      want: [1, 0],
    },
    { name: 'every molecule after the writes', run: (s) => s.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] }) },
  ];
}

const CASES = [...moleculeCases(), ...generatedCases(), ...writeCases()];

async function answers(s: CatalogStore): Promise<Map<string, unknown>> {
  await seed(s);
  const out = new Map<string, unknown>();
  for (const c of CASES) {
    if (out.has(c.name)) throw new Error(`two cases named ${c.name}`);
    try {
      out.set(c.name, await c.run(s));
    } catch (err) {
      out.set(c.name, { threw: (err as Error).message });
    }
  }
  return out;
}

for (const kind of storeKinds({ mingo: true })) {
  t.test(`conformance: ${kind}`, storeVariant(kind), async (t) => {
    const got = await answers((await open(t, kind)).store);
    const ref = kind === 'embedded' ? null : await answers(await makeStore(t, 'embedded'));
    let checked = 0;
    for (const c of CASES) {
      const v = got.get(c.name);
      if (c.want !== undefined) t.strictSame(v, c.want, c.name);
      if (c.differs) t.strictSame(v, kind === 'embedded' ? c.differs.embedded : c.differs.mongo, `${c.name} (${c.differs.why})`);
      else if (ref) t.strictSame(v, ref.get(c.name), `${c.name}: as the embedded store`);
      checked++;
    }
    t.equal(checked, CASES.length, `${CASES.length} cases`);
  });
}

/** The indexes MongoStore declares (api/catalog/schema/: `index`), as `listIndexes` reports them. */
function declaredIndexes(coll: string): IndexList {
  const out: IndexList = [{ name: '_id_', key: { _id: 1 } }];
  if (coll === 'counters') return [...out, { name: 'name_1', key: { name: 1 }, unique: true }];
  const x = storeIndexes(coll as (typeof COLLECTIONS)[number]);
  out.push({ name: 'id_1', key: { id: 1 }, unique: true });
  for (const f of x.mongo) out.push({ name: `${f}_1`, key: { [f]: 1 } });
  for (const f of x.mongoUnique) out.push({ name: `${f}_1`, key: { [f]: 1 }, unique: true, sparse: true });
  return out;
}

const shape = (list: IndexList) => list.map(({ name, key, unique, sparse }) => ({ name, key, ...(unique ? { unique } : {}), ...(sparse ? { sparse } : {}) })).sort((a, b) => a.name.localeCompare(b.name));

for (const kind of ['mingo', 'mongo'] as const) {
  t.test(`MongoStore's indexes and unique keys: ${kind}`, storeVariant(kind), async (t) => {
    const { store: s, indexes, reopen } = await open(t, kind);
    for (const c of [...COLLECTIONS, 'counters']) t.strictSame(shape(await indexes!(c)), shape(declaredIndexes(c)), `${c}: the declared indexes`);
    await reopen!();
    t.strictSame(shape(await indexes!('molecules')), shape(declaredIndexes('molecules')), 'opened again on the same database: the same indexes, no conflict');

    const key = 'RYYVLZVUVIJVGH-UHFFFAOYSA-N';
    await s.insert('molecules', { name: 'a', standard_inchi_key: key });
    await t.rejects(s.insert('molecules', { name: 'b', standard_inchi_key: key }), { code: 11000 }, 'a second molecule with one InChIKey: refused by the unique index');
    await s.insertMany('molecules', [{ name: 'no key' }, { name: 'no key either' }]);
    t.equal(await s.count('molecules', {}), 3, 'any number of molecules without an InChIKey (sparse)');
    const free = (await s.findOne('molecules', { name: 'no key' }))!;
    t.equal(free.id, 3, 'the refused insert used up id 2 (the counter moves first)');
    await t.rejects(s.update('molecules', free.id, { standard_inchi_key: key }), { code: 11000 }, 'an update onto a taken key is refused too');
    t.strictSame(await s.findOne('molecules', { id: free.id }), free, 'and changes nothing');
    await t.rejects(s.insertMany('molecules', [{ name: 'c', standard_inchi_key: 'NEW-KEY' }, { name: 'd', standard_inchi_key: key }]), { code: 11000 }, 'insertMany stops at the duplicate');
    t.equal(await s.count('molecules', { standard_inchi_key: 'NEW-KEY' }), 1, 'ordered: the documents before it stay');
    // A sparse index skips documents without the field, not those holding null: write no null to a unique field.
    await s.insert('molecules', { name: 'null key', standard_inchi_key: null });
    await t.rejects(s.insert('molecules', { name: 'null key 2', standard_inchi_key: null }), { code: 11000 }, 'a second null InChIKey is refused (MongoDB indexes null)');

    await s.insert('users', { email: 'a@x.org', name: 'A', role: 'reader' });
    await t.rejects(s.insert('users', { email: 'a@x.org', name: 'B', role: 'reader' }), { code: 11000 }, 'users: one account per e-mail');
    t.equal(await s.count('users', {}), 1);
    await Promise.all(Array.from({ length: 20 }, () => s.nextCounter('race')));
    t.equal(await s.nextCounter('race'), 21, 'counters: one document per name, each call one step');
  });
}
