/**
 * Catalog structure search end to end, in both runner modes: the LOTUS demo set is imported
 * through the service (derivation on the threads, fingerprints included; the first mode derives,
 * the second reuses those derivations, since derivation is the same task in both modes and
 * deriving 1,242 molecules twice would cost CI half a minute), the index is built
 * (inline) or published and followed (distributed), and `POST /api/search` is checked against
 * native RDKit (test/fixtures/search_reference.json, made by
 * test/fixtures/scripts/search_reference.py): identical substructure hit sets, identical
 * similarity top-50 lists with Tanimoto within 1e-6. Also: writes and deletes seen at once,
 * the structure operators inside a Lomkit search, and 422s for bad queries.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { importDemoOnce } from '../helpers/demo.ts';
import { build, MODES } from '../helpers/app.ts';
import { NO_REDIS, skipAll, storeVariant } from '../helpers/skip.ts';

interface SubRef { name: string; query: string; query_type: 'smiles' | 'smarts'; use_chirality: boolean; hits: string[] }
interface SimRef { name: string; query: string; count_at_0_7: number; top: { inchikey: string; score: number }[] }
const ref = JSON.parse(readFileSync(new URL('../fixtures/search_reference.json', import.meta.url), 'utf8')) as {
  molecule_count: number;
  substructure: SubRef[];
  similarity: SimRef[];
};

// Both stores: MongoDB (a database of its own per run) a named skip where MONGO_URL is not set.
const mongoUrl = process.env.MONGO_URL ? new URL(process.env.MONGO_URL) : undefined;
if (mongoUrl) mongoUrl.pathname = `/natprod_search_${process.pid}`;
const STORES: { name: 'embedded' | 'mongo'; env: Record<string, string> }[] = [
  { name: 'embedded', env: {} },
  { name: 'mongo', env: mongoUrl ? { MONGO_URL: mongoUrl.toString() } : {} },
];


for (const mode of MODES) for (const storeKind of STORES) {
  t.test(`structure search (${mode}, ${storeKind.name} store)`, storeVariant(storeKind.name), async (t) => {
    const ctx = await build(t, mode, { WORKERS: '2', ...storeKind.env });
    if (!ctx) return skipAll(t, NO_REDIS);
    const { app, services } = ctx;
    if (storeKind.name === 'mongo') {
      t.teardown(async () => {
        const mongoose = (await import('mongoose')).default;
        const c = await mongoose.createConnection(storeKind.env.MONGO_URL).asPromise();
        await c.dropDatabase();
        await c.close();
      });
    }
    await importDemoOnce(services);
    await services.searchIndex.start();
    const admin = await ensureUser(services.store, 'admin@example.org', 'admin');
    const token = await issueToken(services.store, admin.id);
    const auth = { authorization: `Bearer ${token}` };

    const search = async (body: Record<string, unknown>) => {
      // natprod's form of the request (`count` present); COCONUT's form is test/search/coconut-search.test.ts.
      const res = await app.inject({ method: 'POST', url: '/api/search', payload: { count: false, ...body } });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    };
    const keysOf = (data: { standard_inchi_key: string }[]) => data.map((d) => d.standard_inchi_key);

    const total = await app.inject({ method: 'POST', url: '/api/molecules/search', headers: auth, payload: { search: { limit: 10 } } });
    t.equal(total.json().total, ref.molecule_count, 'the demo set is in the catalog');

    t.test('substructure hit sets equal native RDKit', async (t) => {
      for (const q of ref.substructure) {
        const hits: string[] = [];
        let total: number | null = null;
        for (let page = 1; ; page++) {
          const r = await search({ type: 'substructure', query: q.query, query_type: q.query_type, use_chirality: q.use_chirality, limit: 100, page, count: true });
          t.equal(r.status, 200, `${q.name}: 200`);
          hits.push(...keysOf(r.body.data));
          total = r.body.total;
          if (!r.body.has_more) break;
        }
        t.equal(total, q.hits.length, `${q.name}: total ${q.hits.length}`);
        t.same([...hits].sort(), q.hits, `${q.name}: the same ${q.hits.length} molecules`);
      }
    });

    t.test('first page without a count stops early and matches the first hits', async (t) => {
      const q = ref.substructure.find((x) => x.name === 'benzene')!;
      const first = await search({ type: 'substructure', query: q.query, limit: 10 });
      t.equal(first.status, 200);
      t.equal(first.body.data.length, 10);
      t.ok(first.body.has_more);
      const counted = await search({ type: 'substructure', query: q.query, limit: 10, count: true });
      t.same(keysOf(first.body.data), keysOf(counted.body.data), 'same first page with and without a count');
      t.equal(counted.body.total, q.hits.length);
    });

    t.test('the exact match comes first', async (t) => {
      // Quercetin is in the demo set; as a substructure query it also hits its glycosides.
      const quercetin = ref.similarity.find((s) => s.name === 'quercetin')!;
      const r = await search({ type: 'substructure', query: quercetin.query, limit: 5, count: true });
      t.equal(r.status, 200);
      t.equal(r.body.data[0].standard_inchi_key, quercetin.top[0].inchikey, 'quercetin itself first');
      t.ok(r.body.total > 1, 'and its derivatives after it');
    });

    t.test('similarity top 50 and scores equal native RDKit', async (t) => {
      for (const q of ref.similarity) {
        const r = await search({ type: 'similarity', query: q.query, threshold: 0, limit: 50 });
        t.equal(r.status, 200, `${q.name}: 200`);
        const got = r.body.data as { standard_inchi_key: string; similarity: number }[];
        t.equal(got.length, Math.min(50, q.top.length), `${q.name}: 50 hits`);
        // Ties are ordered by id here and by InChIKey in the reference: compare as score-grouped sets.
        const group = (xs: { key: string; score: number }[]) => {
          const m = new Map<string, string[]>();
          for (const x of xs) {
            const k = x.score.toFixed(6);
            m.set(k, [...(m.get(k) ?? []), x.key]);
          }
          return m;
        };
        const mine = got.map((g) => ({ key: g.standard_inchi_key, score: g.similarity }));
        const theirs = q.top.map((x) => ({ key: x.inchikey, score: x.score }));
        let worst = 0;
        for (let i = 0; i < mine.length; i++) worst = Math.max(worst, Math.abs(mine[i].score - theirs[i].score));
        t.ok(worst < 1e-6, `${q.name}: scores by rank within 1e-6 (worst ${worst})`);
        const lastScore = theirs[theirs.length - 1].score.toFixed(6);
        const gm = group(mine);
        const gt = group(theirs);
        for (const [score, keys] of gt) {
          // The last score group may be cut at 50 differently: only its size must agree.
          if (score === lastScore) t.equal(gm.get(score)?.length, keys.length, `${q.name}: ${keys.length} at ${score}`);
          else t.same([...(gm.get(score) ?? [])].sort(), [...keys].sort(), `${q.name}: molecules at ${score}`);
        }
        const at07 = await search({ type: 'similarity', query: q.query, limit: 1 });
        t.equal(at07.body.total, q.count_at_0_7, `${q.name}: ${q.count_at_0_7} at the default threshold 0.7`);
      }
    });

    t.test('exact search, with and without chirality', async (t) => {
      const q = ref.similarity.find((s) => s.name === 'quercetin')!;
      const bySmiles = await search({ type: 'exact', query: q.query });
      t.same(keysOf(bySmiles.body.data), [q.top[0].inchikey]);
      const byKey = await search({ type: 'exact', query: q.top[0].inchikey });
      t.same(keysOf(byKey.body.data), [q.top[0].inchikey]);
      // Without chirality, every stereoisomer of a structure is an exact hit.
      const chiral = ref.substructure.find((x) => x.name === 'beta_d_glucopyranose_chiral')!;
      const one = await search({ type: 'exact', query: chiral.query, use_chirality: true });
      const any = await search({ type: 'exact', query: chiral.query, use_chirality: false });
      t.ok(any.body.total >= one.body.total, 'stereo-blind exact matches include the stereo-exact ones');
    });

    t.test('structure operators inside a catalog search combine with other filters', async (t) => {
      const indole = ref.substructure.find((x) => x.name === 'indole')!;
      const res = await app.inject({
        method: 'POST',
        url: '/api/molecules/search',
        headers: auth,
        payload: { search: { filters: [{ field: 'canonical_smiles', operator: 'substructure', value: indole.query }], limit: 50 } },
      });
      t.equal(res.statusCode, 200);
      t.same(keysOf(res.json().data).sort(), indole.hits);
      const heavy = await app.inject({
        method: 'POST',
        url: '/api/molecules/search',
        headers: auth,
        payload: {
          search: {
            filters: [
              { field: 'canonical_smiles', operator: 'substructure', value: indole.query },
              { field: 'properties.molecular_weight', operator: '>', value: 300 },
            ],
            limit: 50,
          },
        },
      });
      const heavyKeys = keysOf(heavy.json().data);
      t.ok(heavyKeys.length > 0 && heavyKeys.length < indole.hits.length, 'fewer with the weight filter');
      t.ok(heavy.json().data.every((d: { standard_inchi_key: string }) => indole.hits.includes(d.standard_inchi_key)));
      const quercetin = ref.similarity.find((s) => s.name === 'quercetin')!;
      const sim = await app.inject({
        method: 'POST',
        url: '/api/molecules/search',
        headers: auth,
        payload: { search: { filters: [{ field: 'canonical_smiles', operator: 'similar', value: quercetin.query, threshold: 0.7 }], limit: 50 } },
      });
      t.equal(sim.json().total, quercetin.count_at_0_7);
      const bad = await app.inject({
        method: 'POST',
        url: '/api/molecules/search',
        headers: auth,
        payload: { search: { filters: [{ field: 'name', operator: 'substructure', value: 'c1ccccc1' }] } },
      });
      t.equal(bad.statusCode, 422);
    });

    t.test('a write is found at once, a delete removed at once', async (t) => {
      const novel = 'CCCCCCCCCCCCCCCCCCCC(=O)NC1=CC=C(Br)C=C1Br';
      const before = await search({ type: 'substructure', query: 'Brc1ccc(NC=O)c(Br)c1', count: true });
      t.equal(before.body.total, 0);
      const created = await app.inject({
        method: 'POST',
        url: '/api/molecules/mutate',
        headers: auth,
        payload: { mutate: [{ operation: 'create', attributes: { canonical_smiles: novel, name: 'test dibromoanilide' } }] },
      });
      t.equal(created.statusCode, 200, created.body);
      const id = created.json().created[0];
      const after = await search({ type: 'substructure', query: 'Brc1ccc(NC=O)c(Br)c1', count: true });
      t.equal(after.body.total, 1, 'found right after the write');
      t.equal(after.body.data[0].id, id);
      const sim = await search({ type: 'similarity', query: novel, threshold: 0.99 });
      t.equal(sim.body.data[0]?.id, id);
      t.equal(sim.body.data[0]?.similarity, 1);
      const del = await app.inject({ method: 'DELETE', url: '/api/molecules', headers: auth, payload: { resources: [id] } });
      t.equal(del.statusCode, 200, del.body);
      const gone = await search({ type: 'substructure', query: 'Brc1ccc(NC=O)c(Br)c1', count: true });
      t.equal(gone.body.total, 0, 'gone right after the delete');
    });

    t.test('bad queries get a 422 that names the problem', async (t) => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ type: 'substructure', query: 'C1CC(' }, /not valid SMILES or SMARTS/],
        [{ type: 'substructure', query: '[C;X9', query_type: 'smarts' }, /not valid SMARTS/],
        [{ type: 'similarity', query: 'c1ccccc1', threshold: 1.5 }, /threshold/],
        [{ type: 'similarity', query: 'c1ccccc1', threshold: '0.5' }, /threshold/],
        [{ type: 'fuzzy', query: 'c1ccccc1' }, /type/],
        [{ type: 'exact' }, /query/],
        [{ type: 'exact', query: 'not a molecule' }, /not valid SMILES/],
        [{ type: 'substructure', query: 'c1ccccc1', $where: 'sleep(1000)' }, /\$where/],
        [{ type: 'substructure', query: { $gt: '' } }, /query/],
        [{ type: 'substructure', query: 'C'.repeat(200), query_type: 'smiles' }, /too large/],
        [{ type: 'substructure', query: 'c1ccccc1', limit: 1000 }, /limit/],
      ];
      for (const [body, msg] of cases) {
        const r = await search(body);
        t.equal(r.status, 422, `422 for ${JSON.stringify(body).slice(0, 60)}`);
        t.match(JSON.stringify(r.body), msg);
      }
    });
  });
}
