/**
 * The class fields as COCONUT stores and searches them (issue 40; COCONUT #802 and its 2026-06
 * migration of `np_classifier_pathway`, `_superclass`, `_class` to jsonb arrays): COCONUT's filter
 * keys `np_pathway:`, `np_superclass:`, `np_class:` match a molecule whose list holds the label
 * among others, and a record stored before the change (a plain string) alike; Lomkit's filters on
 * the same fields match any element; the REST answer gives the NPClassifier fields as lists (a
 * stored string as a one-element list) and the ClassyFire ones as strings, and a molecule created
 * through mutate carries the real derivation's lists. On the embedded store and on MongoStore over
 * mingo (and a real MongoDB with MONGO_URL). Every answer is checked against the OpenAPI document
 * (build() in test/catalog/helper.ts).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { build, seed, storeKinds } from '../catalog/helper.ts';
import { storeVariant } from '../helpers/skip.ts';
import { coconutSearch } from '../../api/catalog/search/index.ts';
import type { StructureSearch } from '../../api/catalog/search/structure/structure.ts';
import { parseLabels } from '../../shared/chem/classify/agreement.ts';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';

const rdkit = await loadRDKit();
// A xanthone that NPClassifier's published data set labels Polyketides / Xanthones / Methyl xanthones
// (test/fixtures/npclassifier_heldout.tsv); xanthones are of mixed origin, so natprod lists two pathways.
const XANTHONE = 'Cc1c(Cl)c(O)c(Cl)c2oc3cc(O)c(Cl)c(O)c3c(=O)c12';
const published = parseLabels(readFileSync(new URL('../fixtures/npclassifier_heldout.tsv', import.meta.url), 'utf8')).find((r) => r.smiles === XANTHONE)!;

for (const kind of storeKinds({ mingo: true })) {
  t.test(`class fields on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind, async (input) => deriveMolecule(rdkit, input));
    const { mols } = await seed(b.store);
    const [m0, m1, m2, , m4] = mols.map((m) => m.id);
    await b.store.setProperties(m0, {
      np_classifier_pathway: ['Terpenoids', 'Alkaloids'], np_classifier_superclass: ['Monoterpenoid alkaloids'],
      np_classifier_class: ['Iboga type', 'Corynanthe type'], chemical_class: 'Indoles and derivatives',
    });
    // Stored before the fields became lists: plain strings.
    await b.store.setProperties(m1, { np_classifier_pathway: 'Alkaloids', np_classifier_class: 'Pyridine alkaloids' });
    await b.store.setProperties(m2, { np_classifier_pathway: ['Shikimates and Phenylpropanoids'], np_classifier_superclass: ['Flavonoids'], np_classifier_class: ['Flavonols', 'Flavones'] });
    await b.store.setProperties(m4, { np_classifier_pathway: null });

    const filters = async (query: string) => {
      const a = await coconutSearch({ store: b.store, structure: undefined as unknown as StructureSearch }, { type: 'filters', query, limit: 100 });
      return ((a as { data: { data: { id: number }[] } }).data.data.map((r) => r.id)).sort((x, y) => x - y);
    };

    t.test('COCONUT filters match any element of the list', async (t) => {
      const cases: [string, number[]][] = [
        ['np_pathway:Alkaloids', [m0, m1]],
        ['np_pathway:terpenoids', [m0]],
        ['np_pathway:Shikimates+and+Phenylpropanoids', [m2]],
        ['np_superclass:monoterpenoid-alkaloids', [m0]],
        ['np_class:Flavones', [m2]],
        ['np_class:Corynanthe+type', [m0]],
        ['np_class:pyridine', [m1]],
        ['np_pathway:Alkaloids np_class:Iboga+type', [m0]],
        ['np_pathway:Alkaloids np_class:Flavones', []],
        ['np_pathway:Terpenoids OR np_class:Flavonols', [m0, m2]],
        ['class:indoles', [m0]],
        ['np_pathway:Polyketides', []],
      ];
      for (const [query, want] of cases) t.same(await filters(query), want, query);
    });

    t.test('Lomkit filters match any element of the list', async (t) => {
      const ids = async (resource: 'molecules' | 'properties', filter: object) => {
        const r = await b.call('POST', `/api/${resource}/search`, { search: { filters: [filter], limit: 50 } }, 'reader');
        t.equal(r.status, 200, JSON.stringify(filter));
        return (r.json.data as { id: number; molecule_id?: number }[]).map((x) => x.molecule_id ?? x.id).sort((x, y) => x - y);
      };
      t.same(await ids('molecules', { field: 'properties.np_classifier_pathway', operator: '=', value: 'Alkaloids' }), [m0, m1], 'molecules: =');
      t.same(await ids('molecules', { field: 'properties.np_classifier_pathway', operator: 'in', value: ['Terpenoids', 'Shikimates and Phenylpropanoids'] }), [m0, m2], 'molecules: in');
      t.same(await ids('molecules', { field: 'properties.np_classifier_class', operator: 'like', value: '%Flavon%' }), [m2], 'molecules: like');
      t.same(await ids('molecules', { field: 'properties.np_classifier_class', operator: 'like', value: 'Flavones' }), [m2], 'molecules: like, one whole element');
      t.same(await ids('properties', { field: 'np_classifier_class', operator: '=', value: 'Iboga type' }), [m0], 'properties: =');
      t.same(await ids('properties', { field: 'np_classifier_pathway', operator: 'like', value: 'Alkal%' }), [m0, m1], 'properties: like (a prefix)');
      t.same(await ids('properties', { field: 'np_classifier_pathway', operator: 'like', value: 'alkal%' }), [], 'properties: like is case-sensitive');
    });

    t.test('REST answer: NPClassifier levels as lists, a stored string as one element, ClassyFire levels as strings', async (t) => {
      const r = await b.call('POST', '/api/properties/search', { search: { filters: [{ field: 'molecule_id', operator: 'in', value: [m0, m1, m4] }], sorts: [{ field: 'molecule_id' }] } }, 'reader');
      t.equal(r.status, 200);
      const [p0, p1, p4] = r.json.data;
      t.strictSame([p0.np_classifier_pathway, p0.np_classifier_class, p0.chemical_class], [['Terpenoids', 'Alkaloids'], ['Iboga type', 'Corynanthe type'], 'Indoles and derivatives']);
      t.strictSame([p1.np_classifier_pathway, p1.np_classifier_superclass, p1.np_classifier_class], [['Alkaloids'], null, ['Pyridine alkaloids']], 'the old strings read as lists');
      t.equal(p4.np_classifier_pathway, null);
      const mol = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', operator: '=', value: m1 }], includes: [{ relation: 'properties' }] } }, 'reader');
      t.strictSame(mol.json.data[0].properties.np_classifier_pathway, ['Alkaloids'], 'the same through the molecule');
    });

    t.test('a molecule created through mutate carries the derivation\'s lists', async (t) => {
      const created = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { name: 'xanthone', canonical_smiles: XANTHONE } }] }, 'curator');
      t.equal(created.status, 200, JSON.stringify(created.json));
      const id = created.json.created[0] as number;
      const r = await b.call('POST', '/api/properties/search', { search: { filters: [{ field: 'molecule_id', operator: '=', value: id }] } }, 'reader');
      const p = r.json.data[0];
      t.ok(Array.isArray(p.np_classifier_pathway) && p.np_classifier_pathway.length >= 1, `pathways ${JSON.stringify(p.np_classifier_pathway)}`);
      t.ok(p.np_classifier_pathway.includes(published.npc_pathway), `the published pathway ${published.npc_pathway} is among them`);
      t.ok(p.np_classifier_superclass.includes(published.npc_superclass), `superclass ${published.npc_superclass}`);
      t.ok(p.np_classifier_class.includes(published.npc_class), `class ${published.npc_class}`);
      t.equal(typeof p.chemical_super_class, 'string', 'ClassyFire-style levels stay strings');
      t.same(await filters(`np_pathway:${published.npc_pathway.replace(/ /g, '+')} np_class:methyl+xanthones`), [id], 'found by its published pathway and class');
    });
  });
}
