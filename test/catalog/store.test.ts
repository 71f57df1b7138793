/** Store port contract: embedded and MongoStore over the mingo stand-in always, mongo when MONGO_URL is set; plus embedded multi-writer safety. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { openStore, nextIdentifier } from '../../api/catalog/store/open.ts';
import { makeStore, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds({ mingo: true })) {
  t.test(`store contract: ${kind}`, storeVariant(kind), async (t) => {
    const s = await makeStore(t, kind);
    t.equal(s.kind, kind === 'mingo' ? 'mongo' : kind, 'mingo: MongoStore over the stand-in');
    const docs = await s.insertMany('organisms', [{ name: 'b', rank: 'x' }, { name: 'a' }, { name: null }]);
    t.same(docs.map((d) => d.id), [1, 2, 3], 'numeric ids from a per-collection counter');
    t.equal((await s.insert('citations', { doi: 'd' })).id, 1);
    t.same((await s.find('organisms', {}, { sort: [{ field: 'name', dir: 1, nulls: 'last' }] })).map((d) => d.id), [2, 1, 3]);
    t.same((await s.find('organisms', {}, { sort: [{ field: 'name', dir: -1, nulls: 'first' }] })).map((d) => d.id), [3, 1, 2]);
    t.same((await s.find('organisms', {}, { sort: [{ field: 'id', dir: -1, nulls: 'first' }], skip: 1, limit: 1 })).map((d) => d.id), [2]);
    t.same(await s.find('organisms', { id: 1 }, { fields: ['name'] }), [{ id: 1, name: 'b' }]);
    t.same((await s.find('organisms', { $not: { name: 'a' } })).map((d) => d.id).sort(), [1, 3], '$not');
    t.same((await s.find('organisms', { name: { $exists: true, $nin: [null, 'a'] } })).map((d) => d.id), [1]);
    t.equal(await s.count('organisms', { name: { $regex: /^[ab]$/ } }), 2);
    const up = await s.upsert('organisms', 'name', 'a', { rank: 'genus' });
    t.match(up, { created: false, doc: { id: 2, name: 'a', rank: 'genus' } });
    const ins = await s.upsert('organisms', 'name', 'c', { rank: 'species' });
    t.match(ins, { created: true, doc: { id: 4, name: 'c' } });
    t.match(await s.update('organisms', 4, { iri: 'i' }, ['rank']), { id: 4, name: 'c', iri: 'i' });
    t.notOk('rank' in (await s.findOne('organisms', { id: 4 }))!);
    const m = await s.insert('molecules', { name: 'm', organism_ids: [] });
    await s.link(m.id, 'organism_ids', [1, 2, 2]);
    await s.unlink(m.id, 'organism_ids', [1]);
    t.same((await s.findOne('molecules', { id: m.id }))!.organism_ids, [2]);
    t.same(await s.distinct('molecules', 'organism_ids', {}), [2]);
    await s.setProperties(m.id, { molecular_weight: 10 });
    await s.setProperties(m.id, { np_likeness: 1 });
    t.same((await s.findOne('molecules', { 'properties.molecular_weight': { $gt: 5 } }))!.properties, { molecular_weight: 10, np_likeness: 1, id: 1 });
    await s.replace('molecules', { id: m.id, name: 'replaced' });
    t.same(await s.findByIds('molecules', [m.id, 999]), [{ id: m.id, name: 'replaced' }]);
    const two = await s.insert('molecules', { name: 'two', identifier: 'CNP9' });
    t.same(await s.findByIds('molecules', [two.id, 999, m.id], ['identifier']), [{ id: two.id, identifier: 'CNP9' }, { id: m.id }], 'only the fields asked for, in the order of the ids');
    await s.remove('molecules', [two.id]);
    t.equal(await s.remove('organisms', [1, 2]), 2);
    t.equal(await s.count('organisms', {}), 2);
    t.equal(await nextIdentifier(s), 'CNP0000001');
    t.equal(await nextIdentifier(s), 'CNP0000002');
    t.equal(await s.exclusive(async () => s.count('organisms', {})), 2, 'exclusive is re-entrant');
  });
}

t.test('embedded: two writers on one DATA_DIR, and restart', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const a = await openStore({ dataDir: dir });
  const b = await openStore({ dataDir: dir });
  await a.count('molecules', {});
  await b.count('molecules', {});
  await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).insert('molecules', { name: `m${i}` })));
  const ids = (await a.find('molecules', {})).map((d) => d.id).sort((x, y) => x - y);
  t.same(ids, Array.from({ length: 20 }, (_, i) => i + 1), 'no id collision, no lost write');
  t.equal(await b.count('molecules', {}), 20, 'the other instance sees every write');
  await b.update('molecules', 1, { name: 'changed by b' });
  t.equal((await a.findOne('molecules', { id: 1 }))!.name, 'changed by b');
  await a.close();
  await b.close();
  const c = await openStore({ dataDir: dir });
  t.equal(await c.count('molecules', {}), 20, 'survives a restart');
  t.equal((await c.insert('molecules', { name: 'next' })).id, 21, 'counter survives too');
  await c.close();
});

t.test('embedded: closing compacts without dropping what another process wrote since', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const service = await openStore({ dataDir: dir });
  const cli = await openStore({ dataDir: dir });
  await service.insert('tokens', { user_id: 1, token_hash: 'a' }); // the service wrote tokens: it compacts them on close
  await cli.insert('tokens', { user_id: 2, token_hash: 'b' }); // after the service's last call
  await cli.close();
  await service.close();
  const after = await openStore({ dataDir: dir });
  t.same((await after.find('tokens', {})).map((d) => d.token_hash).sort(), ['a', 'b']);
  await after.close();
});

t.test('embedded: closing rewrites a file only when its old lines are worth dropping', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = (c: string) => join(dir, `${c}.db`);
  // Document lines (a compacted file also lists its indexes, `$$indexCreated`).
  const lines = async (c: string) => (await readFile(file(c), 'utf8')).split('\n').filter((l) => l && !l.includes('$$indexCreated')).length;
  const a = await openStore({ dataDir: dir });
  const mols = await a.insertMany('molecules', Array.from({ length: 50 }, (_, i) => ({ name: `m${i}` })));
  // (each process that opens a collection appends a line per index it declares: a few lines, next to 500)
  await a.insertMany('organisms', Array.from({ length: 500 }, (_, i) => ({ name: `o${i}` })));
  for (const m of mols) await a.update('molecules', m.id, { name: `${m.name} again` }); // every molecule's line replaced once
  const organisms = (await stat(file('organisms'))).ino;
  await a.close();
  t.equal(await lines('molecules'), 50, 'molecules: 100 lines of which 50 obsolete, compacted to its 50 documents');
  t.equal(await lines('organisms'), 500, 'organisms: inserted only');
  t.equal((await stat(file('organisms'))).ino, organisms, 'and not rewritten (compaction writes a new file)');
  const b = await openStore({ dataDir: dir });
  t.same((await b.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }], limit: 2 })).map((d) => d.name), ['m0 again', 'm1 again']);
  t.equal(await b.count('organisms', {}), 500);
  await b.close();
});

t.test('embedded: a dotted distinct reads embedded documents', async (t) => {
  const s = await makeStore(t);
  const a = await s.insert('molecules', { name: 'a' });
  const b = await s.insert('molecules', { name: 'b' });
  await s.setProperties(a.id, { molecular_weight: 10 });
  await s.setProperties(b.id, { molecular_weight: 12.5 });
  t.same((await s.distinct('molecules', 'properties.molecular_weight', {})).sort(), [10, 12.5]);
});

// An enabled AsyncLocalStorage turns on Node 20's promise hooks for the whole process, which every
// promise then pays for (api/catalog/store/embedded.ts). tap itself enables them, so the check runs
// in a clean child: after nested and concurrent store calls, a promise reaction gets no async id
// of its own, which is what Node does when no hook is on.
t.test('embedded: no promise hooks left on after store calls', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-hooks-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const script = `
    import { executionAsyncId } from 'node:async_hooks';
    import { openStore } from ${JSON.stringify(new URL('../../api/catalog/store/open.ts', import.meta.url).href)};
    const probe = async () => { const outer = executionAsyncId(); return (await Promise.resolve().then(() => executionAsyncId())) !== outer; };
    const before = await probe();
    const s = await openStore({ dataDir: process.argv[1] });
    const nested = await s.exclusive(async () => { await s.insert('organisms', { name: 'a' }); return s.count('organisms', {}); });
    await Promise.all([s.count('organisms', {}), s.insert('organisms', { name: 'b' }), s.find('organisms', {})]);
    console.log(JSON.stringify({ before, nested, count: await s.count('organisms', {}), after: await probe() }));
    await s.close();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir]);
  t.same(JSON.parse(stdout), { before: false, nested: 1, count: 2, after: false }, 'hooks off before and after; nested calls ran');
});

t.test('embedded: reads skip the lock while nobody writes; writes wait for it and for reads', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const s = await openStore({ dataDir: dir });
  const other = await openStore({ dataDir: dir });
  t.teardown(async () => {
    await s.close();
    await other.close();
  });
  await s.insert('molecules', { name: 'a' });
  t.equal(await s.count('molecules', {}), 1);
  // Another live process holds the lock (pid 1 on this host).
  await writeFile(join(dir, 'catalog.lock'), `1 ${hostname()} another-process`);
  const late = (p: Promise<unknown>) => Promise.race([p.then(() => 'done'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
  t.equal(await late(s.count('molecules', {})), 'done', 'a read while another process holds the lock');
  t.equal(await late(s.find('molecules', { name: 'a' })), 'done', 'a find too');
  const write = s.insert('molecules', { name: 'b' });
  t.equal(await late(write), 'waiting', 'a write waits for the lock');
  t.equal(await late(s.count('molecules', {})), 'waiting', 'and a read behind a waiting write waits with it');
  await unlink(join(dir, 'catalog.lock'));
  await write;
  t.equal(await other.count('molecules', {}), 2, 'the other process sees the write (its stamp changed)');
  await other.insert('molecules', { name: 'c' });
  t.equal(await s.count('molecules', {}), 3, 'and this one sees the other\'s');

  // A write of two documents is never seen half done by reads started before or after it.
  const seen: number[] = [];
  for (let i = 0; i < 50; i++) {
    const reads = () => [s.count('organisms', {}).then((n) => seen.push(n)), s.find('organisms', {}).then((d) => seen.push(d.length))];
    await Promise.all([
      ...reads(),
      s.exclusive(async () => {
        await s.insert('organisms', { name: `x${i}` });
        await new Promise((r) => setImmediate(r));
        await s.insert('organisms', { name: `y${i}` });
      }),
      ...reads(),
    ]);
  }
  t.equal(seen.filter((n) => n % 2).length, 0, `${seen.length} reads, none saw one document of a pair`);
});

t.test('embedded: a datafile reads as nedb reads it (replaced, deleted, dated, corrupt lines, index declarations)', async (t) => {
  const { createRequire } = await import('node:module');
  const { createReadStream } = await import('node:fs');
  const { readDatafile } = await import('../../api/catalog/store/embedded-read.ts');
  const Datastore = createRequire(import.meta.url)('@seald-io/nedb');
  const dir = await mkdtemp(join(tmpdir(), 'natprod-read-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'x.db');
  const lines = [
    '{"$$indexCreated":{"fieldName":"id","unique":true,"sparse":false}}',
    '{"$$indexCreated":{"fieldName":"name","unique":false,"sparse":false}}',
    '{"_id":"a","id":1,"name":"first","tags":["x","y"],"n":{"k":1.5}}',
    '{"_id":"b","id":2,"name":"second","at":{"$$date":1700000000000}}',
    '{"_id":"a","id":1,"name":"first, replaced"}',
    '{"_id":"c","id":3}',
    '{"_id":"c","$$deleted":true}',
    '{"$$indexRemoved":"name"}',
    '{"_id":"d","id":4,"name":"unicode \\u00b2 é"}',
    'this line is not JSON',
    '7',
    '{"_id":"e","id":5,"broken":',
    '{"_id":"f","id":6}',
  ];
  await writeFile(file, `${lines.join('\n')}\n`);
  const nedb = new Datastore({ filename: file, corruptAlertThreshold: 0.5 });
  const theirs = await nedb.persistence.treatRawStreamAsync(createReadStream(file, { encoding: 'utf8' }));
  const ours = await readDatafile(createReadStream(file), 0.5);
  t.same(ours, theirs, 'the same documents, in the same order, and the same index declarations');
  t.same(ours.data.map((d) => d._id), ['a', 'b', 'd', 'f']);
  t.ok(ours.data[1]!.at instanceof Date, 'a $$date is a Date');
  await t.rejects(readDatafile(createReadStream(file), 0.1), /corrupt, more than given corruptAlertThreshold/, 'too many corrupt lines refuse the file, as nedb does');
  const strict = new Datastore({ filename: file, corruptAlertThreshold: 0.1 });
  await t.rejects(strict.persistence.treatRawStreamAsync(createReadStream(file, { encoding: 'utf8' })), /corrupt, more than given corruptAlertThreshold/, '(nedb: 2 corrupt lines of 13)');
  // A file whose lines straddle the stream's chunks.
  const many = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ _id: `k${i}`, id: i, s: 'é'.repeat(i % 37) }));
  await writeFile(file, many.join('\n'));
  const big = await readDatafile(createReadStream(file, { highWaterMark: 1000 }), 0);
  t.same(big.data, many.map((l) => JSON.parse(l)), '5,000 lines read in 1,000-byte chunks (multi-byte characters split between them)');
});

t.test('embedded: fields often equal within a document (schema `sameAs`) are read, written and updated unchanged', async (t) => {
  const { SharedValues } = await import('../../api/catalog/store/embedded-shared.ts');
  const { storeIndexes } = await import('../../api/catalog/schema/resources.ts');
  t.same(storeIndexes('molecules').sameAs, [['sugar_free_smiles', 'canonical_smiles'], ['properties.murcko_framework', 'murcko_framework']], 'molecules: the sugar-free SMILES and the properties\' framework');
  t.same(storeIndexes('organisms').sameAs, []);
  const shared = new SharedValues([], storeIndexes('molecules').sameAs);
  t.notOk(shared.empty, 'pairs alone make a table worth applying');
  const docs = [
    { canonical_smiles: 'c1ccccc1O', sugar_free_smiles: 'c1ccccc1O', murcko_framework: 'c1ccccc1', properties: { murcko_framework: 'c1ccccc1', alogp: 1 } },
    { canonical_smiles: 'OCC1OC(O)C(O)C(O)C1O', sugar_free_smiles: '', murcko_framework: 'C1CCOCC1', properties: { murcko_framework: 'C1CCCCC1' } },
    { canonical_smiles: 'CCO', sugar_free_smiles: null, properties: null },
    { canonical_smiles: 'CCO', sugar_free_smiles: 'CCO' },
    { sugar_free_smiles: 'CCO', properties: { murcko_framework: 'x' } },
  ];
  const copy = structuredClone(docs);
  for (const d of docs) shared.share(d as Record<string, unknown>);
  t.same(docs, copy, 'equal or not, present or missing, every value is as it was');
  const set: Record<string, unknown> = { canonical_smiles: 'CC', sugar_free_smiles: 'CC', 'properties.murcko_framework': '', murcko_framework: '' };
  shared.shareSet(set);
  t.same(set, { canonical_smiles: 'CC', sugar_free_smiles: 'CC', 'properties.murcko_framework': '', murcko_framework: '' }, 'a $set holding both of a pair keeps its values');

  const dir = await mkdtemp(join(tmpdir(), 'natprod-same-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const s1 = await openStore({ dataDir: dir });
  await s1.insertMany('molecules', structuredClone(docs.slice(0, 2)) as never[]);
  await s1.update('molecules', 1, { sugar_free_smiles: 'c1ccccc1' } as never);
  await s1.setProperties(2, { murcko_framework: 'C1CCOCC1' });
  const want = await s1.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] });
  t.match(want, [{ canonical_smiles: 'c1ccccc1O', sugar_free_smiles: 'c1ccccc1', properties: { murcko_framework: 'c1ccccc1' } }, { sugar_free_smiles: '', murcko_framework: 'C1CCOCC1', properties: { murcko_framework: 'C1CCOCC1' } }], 'one of a pair changed, the other not');
  const s2 = await openStore({ dataDir: dir });
  t.same(await s2.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] }), want, 'read back from the file as written');
  await s1.close();
  await s2.close();
});

t.test('embedded: values that repeat (schema `repeats`) are kept once, and read, written and updated unchanged', async (t) => {
  const { SharedValues } = await import('../../api/catalog/store/embedded-shared.ts');
  const { storeIndexes } = await import('../../api/catalog/schema/resources.ts');
  const paths = storeIndexes('molecules').repeated;
  t.ok(paths.includes('status') && paths.includes('properties.chemical_class') && paths.includes('properties.np_classifier_class'), `molecules: ${paths.join(', ')}`);
  const shared = new SharedValues(['status', 'properties.chemical_class', 'properties.np_classifier_class']);
  const doc = () => ({ status: 'APPROVED', name: 'x', properties: { chemical_class: 'Flavones', np_classifier_class: ['Flavones', 'Chalcones'], alogp: 1 } });
  const a = doc();
  const b = doc();
  shared.share(a);
  shared.share(b);
  shared.share({ status: null, properties: null });
  t.same([a, b], [doc(), doc()], 'the documents hold the same values');
  t.equal(shared.size, 3, 'one copy of each distinct value: APPROVED, Flavones, Chalcones');
  const set: Record<string, unknown> = { 'properties.chemical_class': 'Coumarins', status: 'REVOKED', properties: { np_classifier_class: ['Coumarins'] } };
  shared.shareSet(set);
  t.same(set, { 'properties.chemical_class': 'Coumarins', status: 'REVOKED', properties: { np_classifier_class: ['Coumarins'] } }, 'a $set keeps its paths and values');
  t.equal(shared.size, 5);

  // Through the store: written, updated, and read back from the file by another store.
  const dir = await mkdtemp(join(tmpdir(), 'natprod-shared-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const s1 = await openStore({ dataDir: dir });
  await s1.insertMany('molecules', [doc(), doc()] as never[]);
  await s1.update('molecules', 2, { status: 'REVOKED', 'properties.chemical_class': 'Coumarins' } as never);
  await s1.setProperties(1, { chemical_class: 'Chalcones' });
  const want = await s1.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] });
  t.match(want, [{ status: 'APPROVED', properties: { chemical_class: 'Chalcones', np_classifier_class: ['Flavones', 'Chalcones'] } }, { status: 'REVOKED', properties: { chemical_class: 'Coumarins' } }]);
  const s2 = await openStore({ dataDir: dir });
  t.same(await s2.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] }), want, 'read back from the file as written');
  t.same((await s2.find('molecules', { 'properties.np_classifier_class': 'Chalcones' })).map((d) => d.id), [1, 2], 'and found by a shared value');
  await s1.close();
  await s2.close();
});

t.test('embedded: values kept on disk (schema `onDisk`: the fingerprints) are read, written, updated, reloaded and compacted unchanged', async (t) => {
  const { storeIndexes } = await import('../../api/catalog/schema/resources.ts');
  t.same(storeIndexes('molecules').onDisk, ['fingerprints.pattern', 'fingerprints.morgan']);
  const dir = await mkdtemp(join(tmpdir(), 'natprod-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Long values, and multibyte characters before and in them: offsets are in bytes.
  const fp = (i: number, tag = '') => ({ v: 1, pattern: `P${i}${tag}`.padEnd(300, 'x'), morgan: `M${i}${tag}é` });
  const byId = { sort: [{ field: 'id', dir: 1 as const, nulls: 'last' as const }] };
  const a = await openStore({ dataDir: dir });
  await a.insertMany('molecules', [{ name: 'é1 α', fingerprints: fp(1) }, { name: 'm2', fingerprints: fp(2) }, { name: 'none' }]);
  const live = (s: unknown) => (s as { files: { dbs: Map<string, { getAllData(): Record<string, any>[] }> } }).files.dbs.get('molecules')!.getAllData();
  const heldOffsets = (s: unknown) => live(s).filter((d) => d.fingerprints).every((d) => typeof d.fingerprints.pattern === 'number' && typeof d.fingerprints.morgan === 'number' && d.fingerprints.v === 1);
  t.ok(heldOffsets(a), 'in memory, written documents hold offsets into the file, not the strings');
  t.same((await a.findOne('molecules', { id: 1 }))!.fingerprints, fp(1), 'a whole document has them');
  t.same(await a.find('molecules', {}, { ...byId, fields: ['fingerprints'] }), [{ id: 1, fingerprints: fp(1) }, { id: 2, fingerprints: fp(2) }, { id: 3 }], 'a projection');
  t.same(await a.find('molecules', { 'fingerprints.v': 1 }, { ...byId, fields: ['fingerprints.morgan'] }), [{ id: 1, fingerprints: { morgan: fp(1).morgan } }, { id: 2, fingerprints: { morgan: fp(2).morgan } }], 'a dotted projection, filtered on what stays in memory');
  t.same((await a.findByIds('molecules', [2]))[0]!.fingerprints, fp(2));
  t.same((await a.update('molecules', 1, { name: 'renamed é' }))!.fingerprints, fp(1), 'an update of another field keeps them');
  t.same((await a.update('molecules', 2, { fingerprints: fp(2, 'b') }))!.fingerprints, fp(2, 'b'), 'an update of the field');
  t.ok(heldOffsets(a), 'and offsets again once written');
  const given = fp(3);
  await a.update('molecules', 3, { fingerprints: given });
  await a.insert('molecules', { name: 'given', fingerprints: given });
  t.same(given, fp(3), "the caller's record is left as it was (nedb's $set stores it as given)");
  t.same(await a.remove('molecules', [4]), 1);
  await a.update('molecules', 3, {}, ['fingerprints']);
  const b = await openStore({ dataDir: dir });
  const want = [{ name: 'renamed é', fingerprints: fp(1) }, { name: 'm2', fingerprints: fp(2, 'b') }, { name: 'none' }];
  t.match(await b.find('molecules', {}, byId), want, 'another process reads them from the file');
  t.ok(heldOffsets(b));
  await b.update('molecules', 1, { 'fingerprints.morgan': 'M1c' });
  t.same((await a.findOne('molecules', { id: 1 }))!.fingerprints, { ...fp(1), morgan: 'M1c' }, 'a dotted $set by another process, seen after the reload');
  for (let i = 0; i < 20; i++) await b.update('molecules', 2, { name: `m2 ${i}` });
  const inode = (await stat(join(dir, 'molecules.db'))).ino;
  await b.close();
  t.not((await stat(join(dir, 'molecules.db'))).ino, inode, 'the other process compacted the file (a new file)');
  const after = [{ name: 'renamed é', fingerprints: { ...fp(1), morgan: 'M1c' } }, { name: 'm2 19', fingerprints: fp(2, 'b') }, { name: 'none' }];
  t.match(await a.find('molecules', {}, byId), after, 'this process reads the values after the compaction');
  await a.insert('molecules', { name: 'later', fingerprints: fp(4) });
  t.match(await a.find('molecules', {}, byId), [...after, { name: 'later', fingerprints: fp(4) }], 'and writes after it');
  await a.close();
  const c = await openStore({ dataDir: dir });
  t.match(await c.find('molecules', {}, byId), [...after, { name: 'later', fingerprints: fp(4) }], 'all of it after a restart');
  await t.rejects(c.update('molecules', 1, { fingerprints: { v: 1, pattern: 5 } }), /fingerprints\.pattern must be a string/, 'a value that is not a string is refused');
  await t.rejects(c.insert('molecules', { fingerprints: { morgan: 7 } }), /fingerprints\.morgan must be a string/);
  await t.rejects(c.update('molecules', 1, { 'fingerprints.pattern': 1 }), /fingerprints\.pattern must be a string/);
  t.same((await c.findOne('molecules', { id: 1 }))!.fingerprints, { ...fp(1), morgan: 'M1c' }, 'unchanged by the refused writes');
  await c.close();
});

t.test('embedded: repeated link lists (schema relations stored locally) are kept once, and read, linked and unlinked unchanged', async (t) => {
  const { storeIndexes } = await import('../../api/catalog/schema/resources.ts');
  t.same(storeIndexes('molecules').repeatedLists, ['organism_ids', 'citation_ids', 'collection_ids']);
  const dir = await mkdtemp(join(tmpdir(), 'natprod-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const byId = { sort: [{ field: 'id', dir: 1 as const, nulls: 'last' as const }] };
  const a = await openStore({ dataDir: dir });
  const mine = [7];
  await a.insertMany('molecules', [{ name: 'a', organism_ids: mine, collection_ids: [1] }, { name: 'b', organism_ids: [7], collection_ids: [1] }, { name: 'c', organism_ids: ['7'] as unknown as number[], collection_ids: [] }]);
  t.notOk(Object.isFrozen(mine), "the caller's array is not frozen");
  mine.push(8);
  await a.close();
  const s = await openStore({ dataDir: dir });
  await s.count('molecules', {});
  const live = (s as unknown as { files: { dbs: Map<string, { getAllData(): Record<string, any>[] }> } }).files.dbs.get('molecules')!.getAllData().sort((x, y) => x.id - y.id);
  t.equal(live[0]!.organism_ids, live[1]!.organism_ids, 'equal lists are one array in memory');
  t.not(live[0]!.organism_ids, live[2]!.organism_ids, '[7] and ["7"] are not equal');
  t.ok(Object.isFrozen(live[0]!.organism_ids), 'and frozen');
  const read = await s.find('molecules', {}, byId);
  t.same(read.map((d) => d.organism_ids), [[7], [7], ['7']]);
  t.notOk(Object.isFrozen(read[0]!.organism_ids), 'a read gets its own array');
  read[0]!.organism_ids!.push(9);
  await s.link(1, 'organism_ids', [9]);
  await s.unlink(2, 'organism_ids', [7]);
  t.same((await s.find('molecules', {}, byId)).map((d) => d.organism_ids), [[7, 9], [], ['7']], 'linking and unlinking change one document');
  t.same((await s.find('molecules', { organism_ids: 7 }, byId)).map((d) => d.id), [1], 'and its index entries');
  t.same((await s.find('molecules', { collection_ids: 1 }, byId)).map((d) => d.id), [1, 2]);
  await s.close();
});
