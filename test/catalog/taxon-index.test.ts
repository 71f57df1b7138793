/**
 * The taxon index (the embedded store's `linkedPage`, api/catalog/store/embedded-linked.ts) behind
 * the taxon queries (`moleculesUnderTaxon`, api/catalog/taxonomy/taxon.ts):
 * - on the demo catalog, every taxon at every rank (each lineage value of the organisms, and each
 *   organism name) answers the molecules that the LOTUS rows themselves give (read here with a
 *   plain TSV reader, as taxonomy.test.ts does), and exactly what the filter path
 *   (`moleculesUnderTaxonByFilter`: count and find with `organism_ids $in`) answers, page for page;
 * - on a generated catalog big enough for the index's typed-array path (a kingdom of over 5,000
 *   molecules), every taxon, under each status filter and order, with pages, equals a reference
 *   computed here by brute force (and the filter path), also after every kind of write to
 *   molecules and organisms, and after a write by another process on the same directory;
 * - MongoDB (when MONGO_URL is set) answers through the filter path, to the same reference.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDemo } from '../../api/catalog/import/demo.ts';
import { EmbeddedStore } from '../../api/catalog/store/embedded.ts';
import type { CatalogStore, Doc, Filter, SortKey } from '../../api/catalog/store/types.ts';
import { LINEAGE_FIELDS, moleculesUnderTaxon, moleculesUnderTaxonByFilter } from '../../api/catalog/taxonomy/taxon.ts';
import { storeVariant } from '../helpers/skip.ts';
import { fakeDerive, makeStore, storeKinds } from './helper.ts';
import { na, readTsv, sampleLineage, validatedLineage } from '../helpers/lotus.ts';

const LINEAGE = [...LINEAGE_FIELDS];
const ANNOTATION: SortKey[] = [
  { field: 'active', dir: -1, nulls: 'first' },
  { field: 'annotation_level', dir: -1, nulls: 'first' },
  { field: 'id', dir: 1, nulls: 'last' },
];
const RECENT: SortKey[] = [{ field: 'id', dir: -1, nulls: 'first' }];
/** The search's base conditions (api/catalog/search/coconut/listing.ts), by status. */
const BASES: Record<string, Filter> = {
  all: { is_placeholder: { $ne: true } },
  approved: { $and: [{ is_placeholder: { $ne: true } }, { active: true }] },
  revoked: { $and: [{ is_placeholder: { $ne: true } }, { active: false }] },
  none: {},
};

// ---------------------------------------------------------------- LOTUS reference (demo catalog)

type Row = { name: string; smiles: string; lineage: Record<string, string | null> };

const sampleRows: Row[] = readTsv('lotus_sample_1000.tsv.gz').map((r) => ({ name: r.organism_name!, smiles: na(r.structure_smiles) ?? r.structure_smiles_2D!, lineage: sampleLineage(r) }));
const validatedRows: Row[] = readTsv('lotus_manually_validated_413.tsv.gz').map((r) => ({ name: r.organismCleaned!, smiles: r.structureCleanedSmiles!, lineage: validatedLineage(r) }));
/** In import order (the validated file first): an organism's lineage is its first row's, later rows filling gaps. */
const rows = [...validatedRows, ...sampleRows];
const lineageOf = new Map<string, Record<string, string | null>>();
for (const r of rows) {
  const cur = lineageOf.get(r.name) ?? Object.fromEntries(LINEAGE.map((f) => [f, null]));
  for (const f of LINEAGE) if (cur[f] === null && r.lineage[f] !== null) cur[f] = r.lineage[f];
  lineageOf.set(r.name, cur);
}
/** Per lower-cased taxon (a lineage value at any rank, or an organism name): the SMILES of the rows of organisms under it. */
const lotusTaxa = new Map<string, { rank: string; smiles: Set<string> }>();
for (const r of rows) {
  const lin = lineageOf.get(r.name)!;
  const under = new Map<string, string>([[r.name.toLowerCase(), 'name']]);
  for (const f of LINEAGE) if (lin[f]) under.set(lin[f]!.toLowerCase(), under.get(lin[f]!.toLowerCase()) ?? f);
  for (const [taxon, rank] of under) {
    const e = lotusTaxa.get(taxon) ?? lotusTaxa.set(taxon, { rank, smiles: new Set() }).get(taxon)!;
    e.smiles.add(r.smiles);
  }
}

/** Every id of a taxon's molecules, in the order asked, through `fn`, a page of `size` at a time. */
async function allPages(fn: typeof moleculesUnderTaxon, store: CatalogStore, taxon: string, base: Filter, sort: SortKey[], size: number): Promise<{ total: number; ids: number[] }> {
  const ids: number[] = [];
  let total = -1;
  for (let skip = 0; ; skip += size) {
    const p = await fn(store, taxon, base, { sort, skip, limit: size });
    if (total >= 0 && p.total !== total) throw new Error(`${taxon}: total ${p.total} after ${total}`);
    total = p.total;
    ids.push(...p.ids);
    if (p.ids.length < size) return { total, ids };
  }
}

t.test('demo catalog: every taxon at every rank answers its LOTUS rows\' molecules, as the filter path does', async (t) => {
  const store = await makeStore(t, 'embedded');
  await importDemo(store, { derive: fakeDerive });
  t.ok(store.linkedPage, 'the embedded store answers from its taxon index');
  const smilesOf = new Map((await store.find('molecules', {}, { fields: ['canonical_smiles'] })).map((m) => [m.id, m.canonical_smiles as string]));
  const byRank: Record<string, number> = {};
  let differ = 0;
  let differFilter = 0;
  for (const [taxon, want] of lotusTaxa) {
    byRank[want.rank] = (byRank[want.rank] ?? 0) + 1;
    // as asked: first letter upper-cased (as LOTUS spells ranks above the species)
    const asked = taxon[0].toUpperCase() + taxon.slice(1);
    const got = await moleculesUnderTaxon(store, asked, BASES.all, { sort: ANNOTATION, skip: 0, limit: 0 });
    const smiles = new Set(got.ids.map((id) => smilesOf.get(id)!));
    if (got.total !== got.ids.length || got.ids.length !== smiles.size || [...want.smiles].some((s) => !smiles.has(s)) || smiles.size !== want.smiles.size) {
      if (++differ <= 5) t.same([...smiles].sort(), [...want.smiles].sort(), `${taxon} (${want.rank})`);
    }
    const ref = await moleculesUnderTaxonByFilter(store, asked, BASES.all, { sort: ANNOTATION, skip: 0, limit: 0 });
    if (JSON.stringify(ref) !== JSON.stringify(got) && ++differFilter <= 5) t.same(got, ref, `${taxon}: as the filter path`);
  }
  t.equal(differ, 0, `${lotusTaxa.size} taxa: each answers the molecules of its LOTUS rows`);
  t.equal(differFilter, 0, 'and exactly what the filter path answers, in the same order');
  t.ok(byRank.kingdom >= 3 && byRank.family > 100 && byRank.genus > 300 && byRank.name > 500, `taxa by rank: ${JSON.stringify(byRank)}`);

  // Pages, status filters and orders, for the widest taxa and a few narrow ones.
  const wide = [...lotusTaxa].sort((a, b) => b[1].smiles.size - a[1].smiles.size).slice(0, 8).map(([x]) => x);
  for (const taxon of [...wide, 'artemisia', 'asteraceae', 'fungi']) {
    for (const [status, base] of Object.entries(BASES)) {
      for (const sort of [ANNOTATION, RECENT]) {
        const a = await allPages(moleculesUnderTaxon, store, taxon, base, sort, 7);
        const b = await allPages(moleculesUnderTaxonByFilter, store, taxon, base, sort, 7);
        t.same(a, b, `${taxon}, ${status}, ${sort === RECENT ? 'recent' : 'annotation'}: page by page`);
      }
    }
  }
  t.same(await moleculesUnderTaxon(store, 'Artemis', BASES.all, { sort: ANNOTATION, limit: 24 }), { total: 0, ids: [] }, 'a part of a name is no taxon');
  t.same(await moleculesUnderTaxon(store, 'Plantae\u0000Fungi', BASES.all, { sort: ANNOTATION, limit: 24 }), { total: 0, ids: [] }, 'no taxon holds a NUL');
  t.same(await moleculesUnderTaxon(store, '  fungi  ', BASES.all, { sort: ANNOTATION, limit: 0 }), await moleculesUnderTaxon(store, 'Fungi', BASES.all, { sort: ANNOTATION, limit: 0 }), 'surrounding spaces dropped');
});

// ---------------------------------------------------------------- generated catalog, brute-force reference

/** Deterministic pseudo-random numbers. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}

const KINGDOMS = ['Plantae', 'Plantae', 'Plantae', 'Plantae', 'Plantae', 'Plantae', 'Plantae', 'Fungi', 'Fungi', 'Bacteria'];

/** 400 organisms (families and genera spelled in varying case, a family also an organism's name, gaps) and `n` molecules. */
async function generate(store: CatalogStore, n: number, seed = 3): Promise<void> {
  const r = rng(seed);
  const organisms = Array.from({ length: 400 }, (_, i) => {
    const fam = `Fam${i % 40}aceae`;
    return {
      name: i === 399 ? 'Fam1aceae' : `Genus${i % 120} species${i}`,
      rank: 'species',
      domain: i % 10 === 9 ? 'Bacteria' : 'Eukaryota',
      kingdom: i % 50 === 7 ? null : KINGDOMS[i % 10],
      order: `Order${i % 10}ales`,
      family: i % 7 === 0 ? fam.toUpperCase() : fam,
      tribe: i % 13 === 0 ? `Tribe${i % 3}eae` : null,
      genus: `Genus${i % 120}`,
      species: `Genus${i % 120} species${i}`,
      variety: i % 17 === 0 ? `var. ${i % 2}` : null,
    };
  });
  const orgs = await store.insertMany('organisms', organisms as never);
  const docs = Array.from({ length: n }, (_, i) => {
    const k = r() < 0.8 ? 1 + Math.floor(r() * 3) : 0;
    const links = Array.from({ length: k }, () => orgs[Math.floor(r() * orgs.length)].id);
    if (i % 97 === 0) links.push(9_999_999); // an organism that does not exist
    const doc: Record<string, unknown> = { name: `m${i}`, identifier: `CNP${String(i + 1).padStart(7, '0')}`, annotation_level: i % 31 === 0 ? null : Math.floor(r() * 6), is_placeholder: i % 211 === 0 };
    if (i % 53 !== 0) doc.active = r() < 0.9;
    if (!(i % 89 === 0)) doc.organism_ids = links;
    return doc;
  });
  await store.insertMany('molecules', docs as never);
}

/** The catalog read whole once (a check's snapshot), for the reference. */
async function snapshot(store: CatalogStore): Promise<{ organisms: Doc[]; molecules: Doc[] }> {
  return { organisms: await store.find('organisms', {}), molecules: await store.find('molecules', {}) };
}

/** The reference: the snapshot's molecules under the taxon, matched and ordered here. */
function reference(snap: { organisms: Doc[]; molecules: Doc[] }, taxon: string, status: string, sort: SortKey[]): { total: number; ids: number[] } {
  const q = taxon.trim().toLowerCase();
  const under = new Set<number>();
  for (const o of snap.organisms) {
    if (['name', ...LINEAGE].some((f) => typeof o[f] === 'string' && (o[f] as string).toLowerCase() === q)) under.add(o.id);
  }
  const keep = (m: Doc) => {
    const links = Array.isArray(m.organism_ids) ? (m.organism_ids as unknown[]) : [m.organism_ids];
    if (!links.some((x) => typeof x === 'number' && under.has(x))) return false;
    if (status === 'none') return true;
    if (m.is_placeholder === true) return false;
    return status === 'approved' ? m.active === true : status === 'revoked' ? m.active === false : true;
  };
  const hits = snap.molecules.filter(keep);
  const level = (m: Doc) => (typeof m.annotation_level === 'number' ? m.annotation_level : Infinity); // nulls first on desc
  const activeKey = (m: Doc) => (m.active === null || m.active === undefined ? 2 : m.active === true ? 1 : 0); // nulls first, then true
  if (sort === RECENT) hits.sort((a, b) => b.id - a.id);
  else hits.sort((a, b) => activeKey(b) - activeKey(a) || level(b) - level(a) || a.id - b.id);
  return { total: hits.length, ids: hits.map((m) => m.id) };
}

/** Every taxon of the generated organisms (lower-cased), with an unknown one. */
async function taxa(store: CatalogStore): Promise<string[]> {
  const out = new Set<string>(['no such taxon']);
  for (const o of await store.find('organisms', {})) for (const f of ['name', ...LINEAGE]) if (typeof o[f] === 'string') out.add((o[f] as string).toLowerCase());
  return [...out];
}

/** The assertions `check` makes. */
type Check = Pick<typeof t, 'same' | 'equal'>;

/** Checks `names` under every status filter and both orders, whole and the second page, against the reference. */
async function check(t: Check, store: CatalogStore, names: string[], label: string): Promise<void> {
  let differ = 0;
  const snap = await snapshot(store);
  for (const taxon of names) {
    for (const status of Object.keys(BASES)) {
      for (const sort of [ANNOTATION, RECENT]) {
        const want = reference(snap, taxon, status, sort);
        const got = await moleculesUnderTaxon(store, taxon.toUpperCase(), BASES[status], { sort, skip: 0, limit: 0 });
        if (JSON.stringify(got) !== JSON.stringify(want) && ++differ <= 3) t.same(got, want, `${label}: ${taxon}, ${status}`);
        const page = await moleculesUnderTaxon(store, taxon, BASES[status], { sort, skip: 24, limit: 24 });
        if (JSON.stringify(page) !== JSON.stringify({ total: want.total, ids: want.ids.slice(24, 48) }) && ++differ <= 3) t.same(page, want, `${label}: ${taxon}, ${status}, second page`);
      }
    }
  }
  t.equal(differ, 0, `${label}: ${names.length} taxa × 4 filters × 2 orders, whole and second page, as the reference`);
}

for (const kind of storeKinds()) {
  t.test(`generated catalog: every taxon as the brute-force reference, before and after writes (${kind})`, storeVariant(kind), async (t) => {
    const store = await makeStore(t, kind);
    await generate(store, 12_000);
    const names = await taxa(store);
    const plantae = reference(await snapshot(store), 'plantae', 'all', ANNOTATION);
    t.ok(plantae.total > 5000, `the kingdom Plantae has ${plantae.total} molecules (the index's typed-array path)`);
    await check(t, store, names, 'as generated');
    if (kind === 'embedded') {
      let differ = 0;
      for (const taxon of names) {
        const a = await moleculesUnderTaxon(store, taxon, BASES.approved, { sort: ANNOTATION, skip: 10, limit: 30 });
        const b = await moleculesUnderTaxonByFilter(store, taxon, BASES.approved, { sort: ANNOTATION, skip: 10, limit: 30 });
        if (JSON.stringify(a) !== JSON.stringify(b) && ++differ <= 3) t.same(a, b, taxon);
      }
      t.equal(differ, 0, 'the index answers what the filter path answers');
    }

    const touched = ['plantae', 'fungi', 'fam1aceae', 'fam2aceae', 'fam3aceae', 'genus5', 'genus7', 'order3ales', 'new family', 'tribe1eae', 'genus5 species5'];
    const ms = await store.find('molecules', { organism_ids: { $in: [6] } }, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] });
    // molecules: insert, update (status, order), placeholder, link, unlink, delete
    await store.insert('molecules', { name: 'new', identifier: 'CNP9000001', active: true, annotation_level: 5, organism_ids: [6, 8] } as never);
    await check(t, store, touched, 'after an insert');
    await store.update('molecules', ms[0].id, { active: false, annotation_level: 0 });
    await store.update('molecules', ms[1].id, { is_placeholder: true });
    await store.update('molecules', ms[2].id, {}, ['annotation_level', 'active']);
    await check(t, store, touched, 'after updates');
    await store.unlink(ms[3].id, 'organism_ids', [6]);
    await store.link(ms[4].id, 'organism_ids', [10, 11]);
    await store.remove('molecules', [ms[5].id]);
    await check(t, store, touched, 'after link, unlink and delete');
    // organisms: rename a family, move to another kingdom, add one, delete one
    await store.update('organisms', 6, { family: 'New Family', kingdom: 'Fungi' });
    const [added] = await store.insertMany('organisms', [{ name: 'Genus7 novum', genus: 'Genus7', family: 'Fam3aceae', kingdom: 'Plantae' }] as never);
    await store.link(ms[6].id, 'organism_ids', [added.id]);
    await store.remove('organisms', [8]);
    await check(t, store, touched, 'after organism writes');
  });
}

t.test('a write by another process on the same directory is seen', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-taxon-'));
  const a = await EmbeddedStore.open(dir);
  t.teardown(async () => {
    await a.close();
    await rm(dir, { recursive: true, force: true });
  });
  await generate(a, 6_000, 5);
  const before = await moleculesUnderTaxon(a, 'Fam2aceae', BASES.all, { sort: ANNOTATION, limit: 0 });
  t.ok(before.total > 0);
  const b = await EmbeddedStore.open(dir);
  await b.update('organisms', 2, { family: 'Elsewhere' });
  await b.insert('molecules', { name: 'other process', active: true, annotation_level: 5, organism_ids: [42] } as never);
  await b.close();
  await check(t, a, ['fam2aceae', 'elsewhere', 'plantae', 'genus42'], 'after the other process wrote');
});
