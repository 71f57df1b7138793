/**
 * The data and the read cases of the store-conformance suite (test/catalog/store-conformance.test.ts):
 * ten hand-written molecules and four organisms whose answers are written out here, and a
 * generated batch in `reports` (a collection the stores keep without a schema) with nulls,
 * missing fields, ties and mixed types, where only the stores' agreement is checked.
 */
import { likeToRegex } from '../../api/catalog/search/lomkit/like.ts';
import type { CatalogStore, Filter, SortKey } from '../../api/catalog/store/types.ts';
import { moleculesUnderTaxon } from '../../api/catalog/taxonomy/taxon.ts';

export interface Case {
  name: string;
  run: (s: CatalogStore) => Promise<unknown>;
  /** The answer, where it is obvious; every case is also compared with the embedded store's. */
  want?: unknown;
  /** Where the stores answer differently by design: each one's answer, and why (no agreement asked). */
  differs?: { embedded: unknown; mongo: unknown; why: string };
}

const props = (molecular_weight: number, chemical_class: string | null, contains_sugar: boolean, heavy_atom_count?: number) => ({
  molecular_weight,
  chemical_class,
  contains_sugar,
  ...(heavy_atom_count === undefined ? {} : { heavy_atom_count }),
});

/** Molecule i + 1 is row i. */
export const MOLECULES: Record<string, unknown>[] = [
  { name: 'caffeine', identifier: 'CNP0000001', standard_inchi_key: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N', status: 'APPROVED', active: true, annotation_level: 3, cas: ['58-08-2'], organism_ids: [1, 2], mixed: 5, properties: { ...props(194.19, 'Alkaloids', false, 14), np_classifier_pathway: ['Alkaloids'] } },
  { name: 'Caffeine_b', identifier: 'CNP0000002', standard_inchi_key: 'AAAAAAAAAAAAAA-UHFFFAOYSA-N', status: 'DRAFT', active: false, annotation_level: 1, cas: null, organism_ids: [2], mixed: 'b', properties: props(200.5, null, true, 15) },
  { name: 'aspirin', identifier: 'CNP0000003', standard_inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', status: 'INREVIEW', active: false, annotation_level: 5, cas: ['50-78-2', '11-11-1'], organism_ids: [], mixed: true, properties: { ...props(180.16, 'Benzenoids', false), np_classifier_pathway: 'Polyketides' } },
  { name: null, identifier: 'CNP0000004', status: 'REVOKED', active: false, annotation_level: 2, cas: null, organism_ids: [3], mixed: null, properties: null },
  { name: 'a.c*(x)', identifier: 'CNP0000005', status: 'APPROVED', active: true, annotation_level: 4, organism_ids: [], mixed: -1.5, properties: props(350, 'Alkaloids', true, 25) },
  { name: '50%_off', identifier: 'CNP0000006', status: 'DRAFT', active: true, annotation_level: 0, organism_ids: [1], mixed: 'a', properties: { molecular_weight: 90 } },
  { identifier: 'CNP0000007', standard_inchi_key: 'QQQQQQQQQQQQQQ-UHFFFAOYSA-N', status: 'APPROVED', active: true, annotation_level: 3, organism_ids: [1, 3] },
  { name: 'Quercetin', identifier: 'CNP0000008', synonyms: ['sophoretin', 'QUERCETIN'], status: 'APPROVED', active: true, annotation_level: 3, organism_ids: [2, 3], mixed: 12, properties: { ...props(302.24, 'Flavonoids', false, 22), np_classifier_pathway: ['Shikimates and Phenylpropanoids'] } },
  { name: 'quercetin 3-glucoside', identifier: 'CNP0000009', status: 'INREVIEW', active: true, annotation_level: 2, organism_ids: [3], mixed: 'B', properties: props(464.38, 'Flavonoids', true, 33) },
  { name: 'rutin', identifier: 'CNP0000010', synonyms: ['Quercetin rutinoside'], status: 'APPROVED', active: false, annotation_level: 4, organism_ids: [1, 2, 3], mixed: false, properties: { ...props(610.52, 'Flavonoids', true, 43), np_classifier_pathway: ['Shikimates and Phenylpropanoids', 'Polyketides'] } },
];

export const ORGANISMS: Record<string, unknown>[] = [
  { name: 'Homo sapiens', genus: 'Homo', family: 'Hominidae', kingdom: 'Metazoa' },
  { name: 'Aspergillus niger', genus: 'Aspergillus', family: 'Aspergillaceae', kingdom: 'Fungi' },
  { name: 'Aspergillus', genus: 'ASPERGILLUS', kingdom: 'Fungi' },
  { name: 'Vitis vinifera', genus: 'Vitis', kingdom: 'Archaeplastida' },
];

/** Deterministic pseudo-random numbers. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}

/** 60 documents for `reports`: every field sometimes null or missing, ties everywhere, mixed types in `mixed`. */
export function generated(): Record<string, unknown>[] {
  const r = rng(41);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: 60 }, (_, i) => {
    const d: Record<string, unknown> = { seq: i };
    if (r() < 0.9) d.level = r() < 0.15 ? null : Math.floor(r() * 5);
    if (r() < 0.9) d.active = r() < 0.1 ? null : r() < 0.6;
    if (r() < 0.85) d.title = r() < 0.1 ? null : pick(['alpha', 'Alpha', 'beta', 'gamma ray', 'Delta', 'épsilon', '']);
    const m = pick<unknown>([1, 2.5, -3, 0, 'x', 'Y', 'y', '10', true, false, null, 'missing']);
    if (m !== 'missing') d.mixed = m;
    if (r() < 0.9) d.tags = Array.from({ length: Math.floor(r() * 3) }, () => pick(['a', 'b', 'c', 'd']));
    if (r() < 0.8) d.meta = r() < 0.1 ? null : { score: r() < 0.2 ? null : Math.round(r() * 1000) / 10, kind: pick(['x', 'y', null]) };
    return d;
  });
}

const ids = (docs: { id: number }[]) => docs.map((d) => d.id);
const sortedIds = (docs: { id: number }[]) => ids(docs).sort((a, b) => a - b);
const label = (f: unknown) => JSON.stringify(f, (_k, v) => (v instanceof RegExp ? String(v) : v));
const like = (p: string) => likeToRegex(p).regex;

/** Molecule filters and the ids they match. */
export const MOLECULE_FILTERS: [Filter, number[]][] = [
  [{}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  [{ name: 'caffeine' }, [1]],
  [{ $or: [{ name: null }, { name: { $exists: false } }] }, [4, 7]],
  [{ name: { $exists: true, $ne: null } }, [1, 2, 3, 5, 6, 8, 9, 10]],
  [{ name: { $exists: true } }, [1, 2, 3, 4, 5, 6, 8, 9, 10]],
  [{ name: { $exists: false } }, [7]],
  [{ name: { $exists: true, $nin: [null, 'aspirin'] } }, [1, 2, 5, 6, 8, 9, 10]],
  [{ status: { $in: ['DRAFT', 'REVOKED'] } }, [2, 4, 6]],
  [{ status: { $nin: ['APPROVED', 'INREVIEW'] } }, [2, 4, 6]],
  [{ annotation_level: { $gte: 2, $lt: 4 } }, [1, 4, 7, 8, 9]],
  [{ annotation_level: { $gt: 3 } }, [3, 5, 10]],
  [{ annotation_level: { $lte: 1 } }, [2, 6]],
  [{ active: false }, [2, 3, 4, 10]],
  [{ active: true, annotation_level: { $ne: 3 } }, [5, 6, 9]],
  [{ mixed: { $gt: 0 } }, [1, 8]],
  [{ mixed: { $gte: 'a', $lt: 'c' } }, [2, 6]],
  [{ mixed: { $lt: 'a' } }, [9]],
  [{ mixed: { $in: [false, 'b', 5] } }, [1, 2, 10]],
  [{ 'properties.molecular_weight': { $gt: 300 } }, [5, 8, 9, 10]],
  [{ 'properties.molecular_weight': { $gte: 180.16, $lte: 200.5 } }, [1, 2, 3]],
  [{ $or: [{ 'properties.chemical_class': null }, { 'properties.chemical_class': { $exists: false } }] }, [2, 4, 6, 7]],
  [{ 'properties.chemical_class': { $in: ['Alkaloids', 'Benzenoids'] } }, [1, 3, 5]],
  [{ 'properties.contains_sugar': true }, [2, 5, 9, 10]],
  // NPClassifier labels: lists (COCONUT's arrays), one molecule (3) still a string as stored before the lists
  [{ 'properties.np_classifier_pathway': 'Polyketides' }, [3, 10]],
  [{ 'properties.np_classifier_pathway': { $in: ['Alkaloids', 'Polyketides'] } }, [1, 3, 10]],
  [{ 'properties.np_classifier_pathway': { $regex: /^Shik/ } }, [8, 10]],
  [{ 'properties.np_classifier_pathway': { $gte: 'Pa', $lt: 'Pz', $regex: /^Po/ } }, [3, 10]],
  [{ 'properties.heavy_atom_count': { $exists: false } }, [3, 4, 6, 7]],
  [{ 'properties.heavy_atom_count': { $gte: 15, $ne: 22 } }, [2, 5, 9, 10]],
  [{ 'properties.molecular_weight': { $in: [] } }, []],
  [{ $or: [{ properties: null }, { properties: { $exists: false } }] }, [4, 7]],
  [{ organism_ids: 2 }, [1, 2, 8, 10]],
  [{ organism_ids: { $in: [1, 3] } }, [1, 4, 6, 7, 8, 9, 10]],
  [{ $not: { organism_ids: { $in: [1, 2] } } }, [3, 4, 5, 9]],
  [{ organism_ids: { $gt: 2 } }, [4, 7, 8, 9, 10]],
  [{ cas: '50-78-2' }, [3]],
  [{ cas: { $regex: /^5/ } }, [1, 3]],
  [{ $or: [{ cas: null }, { cas: { $exists: false } }] }, [2, 4, 5, 6, 7, 8, 9, 10]],
  [{ name: /^caff/i }, [1, 2]],
  [{ name: { $regex: /in$/ } }, [3, 8, 10]],
  [{ name: { $regex: /\./ } }, [5]],
  [{ name: { $regex: like('%in%') } }, [1, 2, 3, 8, 9, 10]],
  [{ name: { $gte: 'a', $lt: 'b', $regex: like('a%') } }, [3, 5]],
  [{ name: { $regex: like('50\\%%') } }, [6]],
  [{ $not: { name: 'caffeine' } }, [2, 3, 4, 5, 6, 7, 8, 9, 10]],
  [{ $not: { name: { $regex: /e/ } } }, [3, 4, 5, 6, 7, 10]],
  [{ $or: [{ annotation_level: 0 }, { 'properties.contains_sugar': true }] }, [2, 5, 6, 9, 10]],
  [{ $and: [{ active: true }, { $or: [{ mixed: { $gt: 10 } }, { mixed: 'a' }] }] }, [6, 8]],
  [{ $and: [{ $not: { status: 'APPROVED' } }, { organism_ids: { $in: [3] } }] }, [4, 9]],
  [{ $or: [{ $not: { active: true } }, { name: null }, { name: { $exists: false } }] }, [2, 3, 4, 7, 10]],
  [{ synonyms: { $regex: /quercetin/i } }, [8, 10]],
];

const NULL_ALONE = 'nedb: null equals only null, $ne: null keeps missing fields; MongoDB: null also matches a missing field (write both, as the port says: `$or` with `$exists: false`, or `$exists: true, $ne: null`)';

/**
 * Filters outside what the port promises alike (api/catalog/store/types.ts): the embedded store
 * answers with nedb's semantics, MongoStore with MongoDB's. Each answer is checked, so a change on
 * either side is seen; the catalog's query builders write the portable forms above.
 */
export const DIVERGENT: [Filter, number[], number[], string][] = [
  [{ name: null }, [4], [4, 7], NULL_ALONE],
  [{ name: { $ne: null } }, [1, 2, 3, 5, 6, 7, 8, 9, 10], [1, 2, 3, 5, 6, 8, 9, 10], NULL_ALONE],
  [{ 'properties.chemical_class': null }, [2], [2, 4, 6, 7], NULL_ALONE],
  [{ mixed: { $in: ['a', null] } }, [4, 6], [4, 6, 7], NULL_ALONE],
  [{ organism_ids: { $nin: [1, 2] } }, [4, 7, 8, 9, 10], [3, 4, 5, 9], 'nedb: $nin on a list holds when some element is outside (an empty list never); MongoDB: when no element is inside (an empty list always)'],
  [{ mixed: { $gte: false } }, [], [3, 10], 'nedb compares only numbers, strings and dates in ranges; MongoDB also orders booleans'],
];

const k = (field: string, dir: 1 | -1, nulls: 'first' | 'last'): SortKey => ({ field, dir, nulls });
const byId = k('id', 1, 'last');

/** Total orders (the id last), so the ids of every store must agree. */
export const SORTS: SortKey[][] = [
  [k('annotation_level', 1, 'last'), byId],
  [k('annotation_level', -1, 'first'), byId],
  [k('name', 1, 'last'), byId],
  [k('name', 1, 'first'), byId],
  [k('name', -1, 'last'), byId],
  [k('name', -1, 'first'), byId],
  [k('properties.molecular_weight', 1, 'first'), byId],
  [k('properties.molecular_weight', -1, 'last'), byId],
  [k('properties.chemical_class', 1, 'last'), k('properties.heavy_atom_count', -1, 'first'), byId],
  [k('active', -1, 'last'), k('annotation_level', -1, 'last'), byId],
  [k('mixed', 1, 'last'), byId],
  [k('mixed', -1, 'first'), byId],
  [k('id', -1, 'last')],
];

/** The read cases over the hand-written molecules and organisms. */
export function moleculeCases(): Case[] {
  const out: Case[] = [];
  for (const [f, want] of MOLECULE_FILTERS) {
    out.push({ name: `find ${label(f)}`, run: async (s) => sortedIds(await s.find('molecules', f)), want });
    out.push({ name: `count ${label(f)}`, run: (s) => s.count('molecules', f), want: want.length });
  }
  for (const [f, embedded, mongo, why] of DIVERGENT) out.push({ name: `differs: find ${label(f)}`, run: async (s) => sortedIds(await s.find('molecules', f)), differs: { embedded, mongo, why } });
  const order = (sort: SortKey[], extra: Record<string, unknown> = {}) => ({ sort, fields: ['id'], ...extra });
  out.push(
    { name: 'sort: level asc, nulls last', run: async (s) => ids(await s.find('molecules', {}, order(SORTS[0]))), want: [6, 2, 4, 9, 1, 7, 8, 5, 10, 3] },
    { name: 'sort: name asc, nulls last (bytes: upper case first)', run: async (s) => ids(await s.find('molecules', {}, order(SORTS[2]))), want: [6, 2, 8, 5, 3, 1, 9, 10, 4, 7] },
    { name: 'sort: name desc, nulls first', run: async (s) => ids(await s.find('molecules', {}, order(SORTS[5]))), want: [4, 7, 10, 9, 1, 3, 5, 8, 2, 6] },
    { name: 'sort: mass asc, nulls first', run: async (s) => ids(await s.find('molecules', {}, order(SORTS[6]))), want: [4, 7, 6, 3, 1, 2, 8, 5, 9, 10] },
    { name: 'sort: mixed types asc (numbers, strings, booleans), nulls last', run: async (s) => ids(await s.find('molecules', {}, order(SORTS[10]))), want: [5, 1, 8, 9, 6, 2, 10, 3, 4, 7] },
    { name: 'sort + filter + skip + limit', run: async (s) => ids(await s.find('molecules', { active: true }, order(SORTS[9], { skip: 1, limit: 3 }))), want: [1, 7, 8] },
    { name: 'sort + skip past the end', run: async (s) => ids(await s.find('molecules', {}, order(SORTS[0], { skip: 20 }))), want: [] },
    {
      name: 'projection: top-level and dotted fields',
      run: (s) => s.find('molecules', { id: { $in: [1, 3, 4, 6, 7] } }, { sort: [byId], fields: ['name', 'cas', 'properties.heavy_atom_count'] }),
      want: [
        { id: 1, name: 'caffeine', cas: ['58-08-2'], properties: { heavy_atom_count: 14 } },
        { id: 3, name: 'aspirin', cas: ['50-78-2', '11-11-1'] },
        { id: 4, name: null, cas: null },
        { id: 6, name: '50%_off' },
        { id: 7 },
      ],
    },
    { name: 'findOne', run: (s) => s.findOne('molecules', { name: 'aspirin' }), want: { id: 3, ...MOLECULES[2] } },
    { name: 'findOne: dotted filter', run: async (s) => (await s.findOne('molecules', { 'properties.heavy_atom_count': 43 }))?.id, want: 10 },
    { name: 'findOne: none', run: (s) => s.findOne('molecules', { name: 'nothing' }), want: null },
    { name: 'findByIds: in the order asked, unknown skipped', run: async (s) => ids(await s.findByIds('molecules', [9, 999, 2, 4])), want: [9, 2, 4] },
    { name: 'findByIds: whole documents', run: (s) => s.findByIds('molecules', [7]), want: [{ id: 7, ...MOLECULES[6] }] },
    { name: 'distinct: a scalar', run: async (s) => (await s.distinct('molecules', 'status', {})).sort(), want: ['APPROVED', 'DRAFT', 'INREVIEW', 'REVOKED'] },
    { name: 'distinct: a list, flattened', run: async (s) => (await s.distinct('molecules', 'organism_ids', { active: false })).sort(), want: [1, 2, 3] },
    { name: 'distinct: a dotted path, nulls left out', run: async (s) => (await s.distinct('molecules', 'properties.chemical_class', {})).sort(), want: ['Alkaloids', 'Benzenoids', 'Flavonoids'] },
    { name: 'distinct: a dotted path to lists and strings', run: async (s) => (await s.distinct('molecules', 'properties.np_classifier_pathway', {})).sort(), want: ['Alkaloids', 'Polyketides', 'Shikimates and Phenylpropanoids'] },
    { name: 'distinct: strings of a list', run: async (s) => (await s.distinct('molecules', 'cas', { annotation_level: { $gt: 2 } })).sort(), want: ['11-11-1', '50-78-2', '58-08-2'] },
    {
      name: 'containing: ranks and extra fields',
      run: async (s) => (await s.containing('molecules', ['name', 'synonyms', 'identifier'], 'QUERCETIN', ['active'])).sort((a, b) => a.id - b.id),
      want: [{ id: 8, rank: 0, active: true }, { id: 9, rank: 3, active: true }, { id: 10, rank: 4, active: false }],
    },
    { name: 'containing: literal text, no pattern', run: async (s) => sortedIds(await s.containing('molecules', ['name'], '.c*(')), want: [5] },
    { name: 'containing: % and _ are plain characters', run: async (s) => sortedIds(await s.containing('molecules', ['name', 'identifier'], '0%_')), want: [6] },
    { name: 'containing: nothing', run: (s) => s.containing('molecules', ['name'], 'zzz'), want: [] },
    { name: 'taxon page: genus, any case, sorted and paged', run: (s) => moleculesUnderTaxon(s, 'aspergillus', null, { sort: [k('annotation_level', -1, 'last'), byId], skip: 1, limit: 4 }), want: { total: 7, ids: [1, 7, 8, 4] } },
    { name: 'taxon page: with a filter', run: (s) => moleculesUnderTaxon(s, 'Fungi', { active: true }, { sort: [byId] }), want: { total: 4, ids: [1, 7, 8, 9] } },
    { name: 'taxon page: an organism name', run: (s) => moleculesUnderTaxon(s, 'homo SAPIENS', { 'properties.contains_sugar': true }, { sort: [byId] }), want: { total: 1, ids: [10] } },
    { name: 'taxon page: none', run: (s) => moleculesUnderTaxon(s, 'Vitis', null, { sort: [byId] }), want: { total: 0, ids: [] } },
  );
  return out;
}

/** Filters over the generated documents: only agreement is checked. */
const REPORT_FILTERS: Filter[] = [
  { $or: [{ level: null }, { level: { $exists: false } }] }, { level: { $exists: true, $ne: null } }, { level: { $gte: 2 } }, { level: { $in: [0, 3] } }, { level: { $exists: true, $nin: [0, null] } },
  { active: true }, { active: { $ne: true } }, { active: { $exists: false } }, { title: { $regex: /^a/i } }, { title: '' },
  { title: { $gte: 'D', $lt: 'b' } }, { title: { $regex: like('%a') } }, { $not: { title: { $regex: /a/ } } },
  { mixed: { $gt: 0 } }, { mixed: { $lt: 'y' } }, { mixed: { $in: ['10', 1, true] } }, { mixed: { $exists: true, $nin: [null, 0] } },
  { tags: 'a' }, { tags: { $in: ['b', 'c'] } }, { $not: { tags: 'a' } }, { tags: { $regex: /[cd]/ } },
  { 'meta.score': { $gt: 50 } }, { 'meta.score': { $exists: true, $ne: null } }, { 'meta.kind': { $exists: true } }, { $or: [{ meta: null }, { meta: { $exists: false } }] },
  { $or: [{ level: 4 }, { 'meta.kind': 'x', active: true }] }, { $and: [{ $not: { level: 1 } }, { $not: { tags: 'b' } }] },
];

const REPORT_SORTS: SortKey[][] = [
  [k('level', 1, 'last'), k('seq', 1, 'last')],
  [k('level', -1, 'first'), k('seq', -1, 'last')],
  [k('active', -1, 'last'), k('level', 1, 'first'), k('seq', 1, 'last')],
  [k('title', 1, 'first'), k('seq', 1, 'last')],
  [k('title', -1, 'last'), k('seq', 1, 'last')],
  [k('mixed', 1, 'last'), k('seq', 1, 'last')],
  [k('mixed', -1, 'first'), k('seq', -1, 'last')],
  [k('meta.score', -1, 'last'), k('meta.kind', 1, 'first'), k('seq', 1, 'last')],
];

/** The cases over the generated documents in `reports`. */
export function generatedCases(): Case[] {
  const out: Case[] = [];
  for (const f of REPORT_FILTERS) {
    out.push({ name: `reports: find ${label(f)}`, run: async (s) => sortedIds(await s.find('reports', f)) });
    out.push({ name: `reports: count ${label(f)}`, run: (s) => s.count('reports', f) });
  }
  for (const sort of REPORT_SORTS) {
    out.push({ name: `reports: sort ${label(sort)}`, run: async (s) => ids(await s.find('reports', {}, { sort, fields: ['seq'] })) });
    out.push({ name: `reports: sort ${label(sort)}, filtered page`, run: async (s) => s.find('reports', { level: { $ne: 2 } }, { sort, skip: 5, limit: 10, fields: ['seq', 'meta.score', 'tags'] }) });
  }
  // Without a tiebreak the order of ties is the store's own: compare the sort values, not the ids.
  out.push({ name: 'reports: sort without a tiebreak (values)', run: async (s) => (await s.find('reports', {}, { sort: [k('level', 1, 'first')] })).map((d) => d.level ?? null) });
  out.push({ name: 'reports: distinct tags', run: async (s) => (await s.distinct('reports', 'tags', {})).sort() });
  out.push({ name: 'reports: distinct mixed', run: async (s) => (await s.distinct('reports', 'mixed', {})).map(String).sort() });
  out.push({ name: 'reports: distinct meta.kind', run: async (s) => (await s.distinct('reports', 'meta.kind', { active: true })).sort() });
  out.push({ name: 'reports: containing title', run: async (s) => (await s.containing('reports', ['title'], 'ALPHA', ['seq'])).sort((a, b) => a.id - b.id) });
  for (const sort of SORTS) out.push({ name: `molecules: sort ${label(sort)}`, run: async (s) => ids(await s.find('molecules', {}, { sort, fields: ['id'] })) });
  return out;
}
