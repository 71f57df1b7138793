/**
 * The embedded store's in-memory order (api/catalog/store/sort.ts: `sortOrder`, `sortDocs`): its
 * number-array path (fields holding only finite numbers, or only booleans, besides null and
 * missing) and its general comparator, against a reference written here from the rules the
 * store documents (PostgreSQL's null placement: last ascending, first descending unless asked
 * otherwise; false before true; numbers before strings before booleans before anything else;
 * a stable sort, ties in their given order).
 */
import t from 'tap';
import { sortDocs, sortOrder } from '../../api/catalog/store/sort.ts';
import type { Doc, SortKey } from '../../api/catalog/store/types.ts';

function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}

const typeRank = (v: unknown) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : 3);

/** The reference comparator: one key at a time. */
function compare(a: Doc, b: Doc, sort: SortKey[]): number {
  for (const k of sort) {
    const va = k.field.split('.').reduce<unknown>((cur, p) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined), a);
    const vb = k.field.split('.').reduce<unknown>((cur, p) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined), b);
    const na = va === null || va === undefined;
    const nb = vb === null || vb === undefined;
    if (na && nb) continue;
    if (na !== nb) return (na ? 1 : -1) * (k.nulls === 'last' ? 1 : -1);
    if (typeRank(va) !== typeRank(vb)) return (typeRank(va) - typeRank(vb)) * k.dir;
    if (typeRank(va) === 3) continue; // objects: not compared by this reference (none generated)
    if (va === vb) continue;
    return ((va as number) < (vb as number) ? -1 : 1) * k.dir;
  }
  return 0;
}

/** A stable insertion sort with the reference comparator (positions). */
function reference(docs: Doc[], sort: SortKey[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < docs.length; i++) {
    let j = out.length;
    while (j > 0 && compare(docs[out[j - 1]], docs[i], sort) > 0) j--;
    out.splice(j, 0, i);
  }
  return out;
}

t.test('sortOrder equals the reference for every direction and null placement, both paths', async (t) => {
  const r = rng(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const docs: Doc[] = Array.from({ length: 600 }, (_, i) => {
    const d: Doc = { id: i + 1 };
    if (r() < 0.9) d.active = r() < 0.1 ? null : r() < 0.7; // booleans, null, missing
    if (r() < 0.9) d.level = r() < 0.1 ? null : Math.floor(r() * 6) - (r() < 0.05 ? 0.5 : 0); // numbers (ties, a negative), null, missing
    d.mixed = pick<unknown>([1, 2.5, -3, 'b', 'a', 'B', true, false, null, undefined, 0, -0]); // general comparator
    d.properties = { mass: r() < 0.2 ? null : Math.round(r() * 1000) / 10 };
    return d;
  });
  const fields = ['active', 'level', 'mixed', 'properties.mass', 'id'];
  let cases = 0;
  for (const f1 of fields) {
    for (const f2 of fields) {
      for (const dir1 of [1, -1] as const) {
        for (const nulls1 of ['first', 'last'] as const) {
          const sort: SortKey[] = [{ field: f1, dir: dir1, nulls: nulls1 }, { field: f2, dir: -dir1 as 1 | -1, nulls: nulls1 === 'first' ? 'last' : 'first' }];
          const want = reference(docs, sort);
          const got = sortOrder(docs, sort);
          if (JSON.stringify(got) !== JSON.stringify(want)) t.same(got, want, JSON.stringify(sort));
          cases++;
        }
      }
    }
  }
  t.pass(`${cases} sorts of 600 documents as the reference`);
  const coconut: SortKey[] = [{ field: 'active', dir: -1, nulls: 'first' }, { field: 'level', dir: -1, nulls: 'first' }, { field: 'id', dir: 1, nulls: 'last' }];
  t.same(sortDocs(docs.slice(), coconut).map((d) => d.id), reference(docs, coconut).map((i) => docs[i].id), 'sortDocs: the documents in that order');
  const inf: Doc[] = [{ id: 1, x: Infinity }, { id: 2, x: null }, { id: 3, x: -Infinity }, { id: 4, x: NaN }, { id: 5, x: 1 }];
  t.same(sortOrder(inf.slice(0, 4), [{ field: 'x', dir: 1, nulls: 'last' }]).length, 4, 'infinities and NaN take the general comparator');
  t.same(sortOrder(inf.slice(0, 3), [{ field: 'x', dir: 1, nulls: 'last' }]), [2, 0, 1], '-Infinity, Infinity, then null (not tied with Infinity)');
});
