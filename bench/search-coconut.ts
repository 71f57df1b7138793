/**
 * COCONUT's search types of `POST /api/search` over the 100,000-molecule catalog, timed through
 * `coconutSearch()` (the route's code, without HTTP): text, InChIKey, first InChIKey block,
 * formula, identifier, tags (organisms, citations, data source), filters (three conditions, one
 * OR) and substructure in COCONUT's order (exact first, then by similarity; the total counted).
 * Queries come from the catalog itself (names, keys, formulas, identifiers, organisms, DOIs of
 * molecules spread over the whole id range) and from a seeded generator (filters). Part of
 * bench/search.ts (run that); asserts nothing.
 *
 * The first query of each kind builds what the embedded store keeps between writes (the
 * substring index of names, the property columns): it is reported apart, as "first after a
 * write", and left out of the percentiles, which are the steady state of a catalog being read.
 */
import type { CatalogStore } from '../api/catalog/store/types.ts';
import type { StructureSearch } from '../api/catalog/search/structure/structure.ts';
import { coconutSearch } from '../api/catalog/search/coconut/answer.ts';
import { rng } from './data/search-catalog.ts';

type Report = (label: string, xs: number[], extra?: string) => void;
type Time = (fn: () => Promise<unknown>) => Promise<number>;


export async function coconutBench(store: CatalogStore, structure: StructureSearch, report: Report, time: Time, cores: [string, string, 'smiles' | 'smarts'][]): Promise<void> {
  const random = rng(42);
  const search = (body: Record<string, unknown>) => coconutSearch({ store, structure }, body);
  const n = await store.count('molecules', {});
  const sampleIds = Array.from({ length: 200 }, (_, i) => 1 + Math.floor(((i + 0.5) * n) / 200));
  const sample = await store.find('molecules', { id: { $in: sampleIds } }, { fields: ['name', 'identifier', 'standard_inchi_key', 'properties.molecular_formula'] });
  const lotusNames = (await store.find('molecules', { collection_ids: (await store.find('collections', { title: 'LOTUS' }))[0]?.id ?? -1 }, { fields: ['name'], limit: 4000 }))
    .map((d) => String(d.name ?? '').replace(/ \(\+.*\)$/, ''))
    .filter((x) => x && !x.includes(':'));
  const names = Array.from({ length: 200 }, () => lotusNames[Math.floor(random() * lotusNames.length)]);
  const organisms = await store.find('organisms', {}, { fields: ['name'] });
  const citations = await store.find('citations', { doi: { $exists: true, $ne: null } }, { fields: ['doi'] });
  const pathways = (await store.distinct('molecules', 'properties.np_classifier_pathway', {})) as string[];
  const superclasses = (await store.distinct('molecules', 'properties.chemical_super_class', {})) as string[];
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const plus = (s: string) => s.replace(/\s+/g, '+');

  const kinds: [string, Record<string, unknown>[]][] = [
    ['text (LOTUS names)', names.map((q) => ({ query: q, type: 'text' }))],
    ['text, auto-detected', names.map((q) => ({ query: q }))],
    ['InChIKey', sample.map((d) => ({ query: d.standard_inchi_key, type: 'inchikey' }))],
    ['partial InChIKey (first block)', sample.map((d) => ({ query: String(d.standard_inchi_key).slice(0, 14) }))],
    ['molecular formula', sample.map((d) => ({ query: (d.properties as { molecular_formula: string }).molecular_formula }))],
    ['identifier', sample.map((d) => ({ query: d.identifier }))],
    ['tags: organisms (genus)', Array.from({ length: 100 }, () => ({ type: 'tags', tagType: 'organisms', query: String(pick(organisms).name).split(' ')[0] }))],
    ['tags: citations (DOI)', Array.from({ length: 100 }, () => ({ type: 'tags', tagType: 'citations', query: pick(citations).doi }))],
    ['tags: dataSource (4 collections)', Array.from({ length: 40 }, (_, i) => ({ type: 'tags', tagType: 'dataSource', query: ['LOTUS', 'NCI', 'WEHI', 'rdkit-data'][i % 4] }))],
    [
      'filters: 3 conditions, 1 OR (numbers)',
      Array.from({ length: 100 }, () => {
        const a = 10 + Math.floor(random() * 30);
        const m = 150 + Math.floor(random() * 400);
        return { type: 'filters', query: `hac:${a}..${a + 8} cs:${random() < 0.5} OR mw:${m}..${m + 40}` };
      }),
    ],
    [
      'filters: 3 conditions, 1 OR (classes)',
      Array.from({ length: 100 }, () => {
        const x = -2 + Math.floor(random() * 6);
        return { type: 'filters', query: `np_pathway:${plus(pick(pathways))} alogp:${x}..${x + 2} OR superclass:${plus(pick(superclasses))}` };
      }),
    ],
  ];
  console.log('\nCOCONUT search (POST /api/search), limit 24:');
  for (const [label, bodies] of kinds) {
    const first = await time(() => search(bodies[0]));
    const xs: number[] = [];
    let hits = 0;
    for (const b of bodies) {
      xs.push(
        await time(async () => {
          const { data } = await search(b);
          hits += Array.isArray(data) ? 0 : data.total; // an array only for a list of m/z values (type mass)
        }),
      );
    }
    report(label, xs, `first after a write ${first.toFixed(0)} ms, mean hits ${(hits / bodies.length).toFixed(0)}`);
  }
  const ranked: number[] = [];
  for (const [, query, query_type] of cores) for (let r = 0; r < 3; r++) ranked.push(await time(() => search({ type: 'substructure', query, query_type })));
  report('substructure, COCONUT order, page 1', ranked, '(exact first, then by similarity: every hit ranked and counted)');
}
