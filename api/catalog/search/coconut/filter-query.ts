/**
 * Parsed filter conditions (filter-language.ts) as one store filter over molecules, for both
 * stores. Every value in it is a number, a boolean or a string this code chose (a class value
 * found in the catalog, an id): nothing from the request becomes an operator.
 *
 * - numbers: `$gte`/`$lte` on the property; booleans and formulas: equality;
 * - classes: the catalog's distinct values of the field whose normalised text contains the
 *   normalised value (`slug`, COCONUT's `ILIKE '%value%'` on hyphenated names, made symmetric),
 *   then `$in` of those values (an index or a column answers it);
 * - `ds`: per source the collections whose title or identifier equals it (ignoring case), each
 *   source required; `org`, `cite`: the organisms (name) or citations (DOI, title) containing the
 *   text, then the molecules linked to any of them.
 */
import type { CatalogStore, Filter } from '../../store/types.ts';
import { Errors } from '../../schema/types.ts';
import type { CoconutRequest } from '../request.ts';
import { normalizeFormula } from './formula.ts';
import { FilterSyntaxError, parseFilters, type Condition, type ParsedFilters } from './filter-language.ts';
import { listing, type Hits } from './listing.ts';

/** Lower case; spaces, `+`, `_` and `-` as one `-`; other punctuation dropped (Laravel's `Str::slug` spelling). */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s+_-]+/g, '-')
    .replace(/[^\p{L}\p{N}-]/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

class Lookups {
  private readonly distinct = new Map<string, Promise<string[]>>();
  private collections?: Promise<{ id: number; title: string; identifier: string }[]>;

  constructor(private readonly store: CatalogStore) {}

  values(field: string): Promise<string[]> {
    let p = this.distinct.get(field);
    if (!p) {
      p = this.store.distinct('molecules', field, {}).then((vs) => vs.filter((v): v is string => typeof v === 'string'));
      this.distinct.set(field, p);
    }
    return p;
  }

  async collectionIds(source: string): Promise<number[]> {
    this.collections ??= this.store
      .find('collections', {}, { fields: ['title', 'identifier'] })
      .then((cs) => cs.map((c) => ({ id: c.id, title: String(c.title ?? '').toLowerCase(), identifier: String(c.identifier ?? '').toLowerCase() })));
    const s = source.toLowerCase();
    return (await this.collections).filter((c) => c.title === s || c.identifier === s).map((c) => c.id);
  }

  async linked(coll: 'organisms' | 'citations', text: string): Promise<number[]> {
    const fields = coll === 'organisms' ? ['name'] : ['doi', 'title'];
    return (await this.store.containing(coll, fields, text)).map((h) => h.id);
  }
}

async function conditionFilter(c: Condition, look: Lookups): Promise<Filter> {
  const field = c.def.field!;
  switch (c.kind) {
    case 'number':
      if (c.min !== undefined && c.min === c.max) return { [field]: c.min };
      return { [field]: { ...(c.min !== undefined ? { $gte: c.min } : {}), ...(c.max !== undefined ? { $lte: c.max } : {}) } };
    case 'boolean':
      return { [field]: c.value };
    case 'formula':
      return { [field]: normalizeFormula(c.formula) };
    case 'class': {
      const want = slug(c.text);
      const values = (await look.values(field)).filter((v) => slug(v).includes(want));
      return { [field]: { $in: values } };
    }
    case 'collections': {
      const each = await Promise.all(c.sources.map(async (s) => ({ [field]: { $in: await look.collectionIds(s) } })));
      return each.length === 1 ? each[0] : { $and: each };
    }
    case 'organisms':
    case 'citations':
      return { [field]: { $in: await look.linked(c.kind, c.text) } };
  }
}

/** The store filter of parsed conditions; null when there are none (everything matches). */
export async function filtersToQuery(parsed: ParsedFilters, store: CatalogStore): Promise<Filter | null> {
  if (!parsed.length) return null;
  const look = new Lookups(store);
  const branches = await Promise.all(
    parsed.map(async (conds) => {
      const parts = await Promise.all(conds.map((c) => conditionFilter(c, look)));
      return parts.length === 1 ? parts[0] : { $and: parts };
    }),
  );
  return branches.length === 1 ? branches[0] : { $or: branches };
}

/** COCONUT's type `filters`: the query in the filter language (a syntax error is a 422 on `query`), active molecules first. */
export async function filterSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  let parsed: ParsedFilters = [];
  try {
    parsed = parseFilters(req.query);
  } catch (e) {
    if (!(e instanceof FilterSyntaxError)) throw e;
    const errors = new Errors();
    errors.add('query', e.message);
    errors.throwIfAny();
  }
  return listing(store, req, await filtersToQuery(parsed, store), 'active');
}
