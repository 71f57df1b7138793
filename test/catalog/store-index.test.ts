/**
 * The embedded store's field index (api/catalog/store/embedded-index.ts) answers as nedb's own
 * Index (@seald-io/nedb lib/indexes.js), the reference: the same random writes applied to both,
 * and after each one the same answers to equality, `$in`, range and whole-index reads, the same
 * unique-constraint failures, and the same state after them.
 */
import { createRequire } from 'node:module';
import t from 'tap';
import { CompactIndex } from '../../api/catalog/store/embedded-index.ts';

const NedbIndex = createRequire(import.meta.url)('@seald-io/nedb/lib/indexes.js');

/** A small seeded generator (mulberry32): the same cases every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const DATES = [new Date(1_000), new Date(2_000)];
const SCALARS: unknown[] = [0, 1, 2, 2.5, -1, 10, 'a', 'b', 'B', 'ab', '', '1', true, false, null, DATES[0], DATES[1]];

for (const [label, options] of [
  ['non-unique', { fieldName: 'k' }],
  ['unique', { fieldName: 'k', unique: true }],
  ['sparse', { fieldName: 'k', sparse: true }],
  ['unique sparse, dotted path', { fieldName: 'p.k', unique: true, sparse: true }],
  ['_id (insertion order)', { fieldName: '_id', unique: true }],
] as const) {
  t.test(`CompactIndex answers as nedb's Index: ${label}`, async (t) => {
    const rand = rng(label.length * 7919);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    // Sparse indexes without dates: nedb's insert skips a date key there (its test for an empty
    // compound key sees a date as one) but its remove does not, and its tree then drops the whole
    // key of whichever document holds it alone (binary-search-tree deletes a one-document node
    // without comparing the document). The catalog declares no sparse index.
    const scalars = options.sparse ? SCALARS.filter((v) => !(v instanceof Date)) : SCALARS;
    const path = options.fieldName.split('.');
    const value = () => {
      const r = rand();
      if (r < 0.1) return undefined;
      if (r < 0.25) return Array.from({ length: Math.floor(rand() * 4) }, () => pick(scalars));
      return pick(scalars);
    };
    let serial = 0;
    const makeDoc = () => {
      const doc: Record<string, unknown> = { _id: `d${serial++}` };
      const v = options.fieldName === '_id' ? doc._id : value();
      if (options.fieldName !== '_id' && v !== undefined) {
        if (path.length === 2) doc[path[0]!] = { [path[1]!]: v };
        else doc.k = v;
      }
      return doc;
    };
    const ref = new NedbIndex(options);
    const ours = new CompactIndex(options);
    const live: Record<string, unknown>[] = [];
    const ids = (docs: Record<string, unknown>[]) => docs.map((d) => d._id);
    /** Both do the same write: both fail (the same error) or neither. */
    const both = (what: string, f: (ix: any) => void) => {
      let a: unknown;
      let b: unknown;
      try {
        f(ref);
      } catch (e) {
        a = (e as { errorType?: string }).errorType ?? String(e);
      }
      try {
        f(ours);
      } catch (e) {
        b = (e as { errorType?: string }).errorType ?? String(e);
      }
      if (a !== b) t.fail(`${what}: nedb ${String(a)}, ours ${String(b)}`);
      if (a !== undefined) refused++;
      return a === undefined;
    };
    let checks = 0;
    let refused = 0;
    const compare = (step: number) => {
      const all = options.fieldName === '_id' ? (xs: unknown[]) => [...xs].sort() : (xs: unknown[]) => xs;
      const probes: [string, () => unknown, () => unknown][] = [
        ['getAll', () => all(ids(ref.getAll())), () => all(ids(ours.getAll()))],
      ];
      const q = options.fieldName === '_id' ? `d${Math.floor(rand() * serial)}` : pick(scalars);
      probes.push([`getMatching ${String(q)}`, () => ids(ref.getMatching(q)).sort(), () => ids(ours.getMatching(q)).sort()]);
      const qs = [pick(scalars), pick(scalars), options.fieldName === '_id' ? 'd1' : pick(scalars)];
      probes.push([`getMatching [${qs.map(String)}]`, () => ids(ref.getMatching(qs)).sort(), () => ids(ours.getMatching(qs)).sort()]);
      const lo = options.fieldName === '_id' ? `d${Math.floor(rand() * serial)}` : pick(scalars);
      const hi = options.fieldName === '_id' ? `d${Math.floor(rand() * serial)}` : pick(scalars);
      for (const bounds of [{ $gte: lo }, { $gt: lo, $lte: hi }, { $lt: hi }, { $gte: lo, $lt: hi }]) {
        probes.push([`getBetweenBounds ${JSON.stringify(bounds)}`, () => ids(ref.getBetweenBounds(bounds)), () => ids(ours.getBetweenBounds(bounds))]);
      }
      for (const [name, a, b] of probes) {
        checks++;
        const want = a();
        const got = b();
        if (JSON.stringify(want) !== JSON.stringify(got)) t.fail(`step ${step}, ${name}: nedb ${JSON.stringify(want)}, ours ${JSON.stringify(got)}`);
      }
    };
    for (let step = 0; step < 1500; step++) {
      const r = rand();
      if (r < 0.35 || live.length < 3) {
        const doc = makeDoc();
        if (both('insert', (ix) => ix.insert(doc))) live.push(doc);
      } else if (r < 0.45) {
        const docs = [makeDoc(), makeDoc(), makeDoc()];
        if (both('insert many', (ix) => ix.insert(docs))) live.push(...docs);
      } else if (r < 0.6) {
        const i = Math.floor(rand() * live.length);
        const [doc] = live.splice(i, 1);
        both('remove', (ix) => ix.remove(doc));
      } else if (r < 0.8) {
        const i = Math.floor(rand() * live.length);
        const old = live[i]!;
        // Half the updates keep the key (the in-place path), half draw a new one.
        const next = rand() < 0.5 ? { ...old, other: step } : { ...makeDoc(), _id: old._id };
        if (both('update', (ix) => ix.update(old, next))) live[i] = next;
      } else if (r < 0.9) {
        const chosen = [...new Set([pick(live), pick(live)])];
        const pairs = chosen.map((oldDoc) => ({ oldDoc, newDoc: { ...makeDoc(), _id: oldDoc._id } }));
        if (both('update many', (ix) => ix.update(pairs))) for (const p of pairs) live[live.indexOf(p.oldDoc)] = p.newDoc;
      } else {
        const old = pick(live);
        const next = { ...makeDoc(), _id: old._id };
        if (both('update then revert', (ix) => ix.update(old, next))) both('revert', (ix) => ix.revertUpdate(old, next));
      }
      compare(step);
    }
    both('reset', (ix) => ix.reset(live.slice(0, 50)));
    compare(-1);
    t.pass(`1,500 random writes (${refused} refused by both), ${checks} answers compared`);
    if (options.unique && options.fieldName !== '_id') t.ok(refused > 0, 'unique violations and their roll-backs were exercised');
  });
}

t.test('CompactIndex: the unique error is nedb\'s', async (t) => {
  const ix = new CompactIndex({ fieldName: 'k', unique: true });
  ix.insert({ _id: 'a', k: 1 } as never);
  let error: unknown;
  try {
    ix.insert({ _id: 'b', k: [2, 1] } as never);
  } catch (e) {
    error = e;
  }
  t.match(error, { errorType: 'uniqueViolated', key: 1, message: /violates the unique constraint/ });
  t.same(ix.getMatching(2), [], 'the array document\'s first key rolled back');
  t.same(ix.getAll().map((d) => (d as unknown as { _id: string })._id), ['a']);
});

t.test('CompactIndex: a key shared by many documents (kept as a Set past 32) keeps nedb\'s order through updates and removals', async (t) => {
  const ref = new NedbIndex({ fieldName: 'k' });
  const ours = new CompactIndex({ fieldName: 'k' });
  let docs = Array.from({ length: 100 }, (_, i) => ({ _id: `d${i}`, k: i % 3 ? 1 : 2 }));
  for (const d of docs) {
    ref.insert(d);
    ours.insert(d as never);
  }
  for (let i = 0; i < 100; i += 2) {
    const next = { ...docs[i]!, v: i };
    ref.update(docs[i], next);
    ours.update(docs[i] as never, next as never);
    docs[i] = next;
  }
  for (let i = 0; i < 100; i += 4) {
    ref.remove(docs[i]);
    ours.remove(docs[i] as never);
  }
  docs = docs.filter((_, i) => i % 4);
  const ids = (xs: { _id: string }[]) => xs.map((d) => d._id);
  t.same(ids(ours.getMatching(1) as never), ids(ref.getMatching(1)), 'the shared key\'s documents, in nedb\'s order');
  t.same(ids(ours.getAll() as never), ids(ref.getAll()), 'and the whole index');
  t.equal(ours.getMatching(1).length, docs.filter((d) => d.k === 1).length);
});

t.test('CompactIndex: a document updated as nedb updates it (removed and inserted in every index) leaves the key order as it was', async (t) => {
  const index = new CompactIndex({ fieldName: 'k' });
  const docs = Array.from({ length: 1000 }, (_, i) => ({ id: i, k: `K${String(i).padStart(4, '0')}` }));
  index.insert(docs);
  const order = () => (index as unknown as { sorted: unknown[] }).sorted;
  t.equal(index.getBetweenBounds({ $gte: 'K0100', $lt: 'K0110' }).length, 10);
  const before = order();
  for (let i = 0; i < 50; i++) {
    const old = docs[i * 20]!;
    const next = { ...old, v: i };
    index.update([{ oldDoc: old, newDoc: next }]);
    docs[i * 20] = next;
    t.same(index.getBetweenBounds({ $gte: old.k, $lte: old.k }), [next], 'the range finds the new document');
  }
  t.equal(order(), before, 'and no range query had to merge the keys again');
  // A key that really went away is still dropped from the order.
  index.remove(docs[500]!);
  t.same(index.getBetweenBounds({ $gte: 'K0499', $lte: 'K0501' }).map((d) => d.id), [499, 501]);
  t.equal(index.getAll().length, 999);
});
