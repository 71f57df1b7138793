/** In-memory ordering shared by the embedded store: PostgreSQL-like null placement, byte-order strings. */
import type { Doc, SortKey } from './types.ts';

function dot(doc: Record<string, unknown>, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const rank = (v: unknown): number =>
  typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : 3;

function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 3) {
    const sa = JSON.stringify(a);
    const sb = JSON.stringify(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** Sorts in place, reading each sort value once (decorate-sort-undecorate). */
export function sortDocs<T extends Doc>(docs: T[], sort: SortKey[]): T[] {
  const paths = sort.map((k) => k.field.split('.'));
  const keyed = docs.map((d) => ({ d, v: paths.map((p) => (p.length === 1 ? (d as Record<string, unknown>)[p[0]] : dot(d, p.join('.')))) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const va = a.v[i];
      const vb = b.v[i];
      const na = va === null || va === undefined;
      const nb = vb === null || vb === undefined;
      if (na || nb) {
        if (na && nb) continue;
        return (na ? 1 : -1) * (sort[i].nulls === 'last' ? 1 : -1);
      }
      if (typeof va === typeof vb && (typeof va === 'string' || typeof va === 'number')) {
        if (va !== vb) return (va < vb ? -1 : 1) * sort[i].dir;
        continue;
      }
      const c = compareValues(va, vb) * sort[i].dir;
      if (c !== 0) return c;
    }
    return 0;
  });
  for (let i = 0; i < docs.length; i++) docs[i] = keyed[i].d;
  return docs;
}
