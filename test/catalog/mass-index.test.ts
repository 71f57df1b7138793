/**
 * The dereplication mass index (api/catalog/search/mass/mass-index.ts) over both stores: built from the
 * store on first use, kept current by the writes made through `observeMassWrites`. Expected
 * values are the masses the test itself wrote.
 */
import t from 'tap';
import { makeStore, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';
import { massIndexOf, observeMassWrites, type MassIndex } from '../../api/catalog/search/mass/mass-index.ts';

const inRange = (index: MassIndex, charge: number, lo: number, hi: number) => {
  const out: [number, number][] = [];
  index.forEachInRange(charge, lo, hi, (id, m) => out.push([id, m]));
  return out;
};

for (const kind of storeKinds()) {
  t.test(`mass index, ${kind} store`, storeVariant(kind), async (t) => {
    const store = observeMassWrites(await makeStore(t, kind));
    const index = massIndexOf(store)!;
    t.ok(index, 'the wrapped store carries its index');
    const mk = async (mass: number | null, charge = 0, extra: Record<string, unknown> = {}) => {
      const d = await store.insert('molecules', { canonical_smiles: `C${mass}`, ...extra } as never);
      if (mass !== null) await store.setProperties(d.id, { exact_molecular_weight: mass, formal_charge: charge });
      return d.id;
    };
    const a = await mk(300.1);
    const b = await mk(300.2);
    const c = await mk(300.15, 1);
    await mk(null);
    const p = await mk(300.12, 0, { is_placeholder: true });
    await mk(300.13, 2);
    await index.sync();
    t.same(inRange(index, 0, 300, 301), [[a, 300.1], [b, 300.2]], 'neutral molecules by mass; placeholders, unmeasured and 2+ left out');
    t.same(inRange(index, 1, 300, 301), [[c, 300.15]], 'cations apart');
    t.same(inRange(index, 0, 300.15, 300.2), [[b, 300.2]], 'bounds inclusive');
    t.same(index.size(), { '0': 2, '1': 1, '-1': 0 });

    // Writes through the store reach the next sync.
    await store.setProperties(a, { exact_molecular_weight: 300.3, formal_charge: 0 });
    const d = await mk(299.9);
    await store.update('molecules', p, { is_placeholder: false });
    await store.remove('molecules', [b]);
    await index.sync();
    t.same(inRange(index, 0, 299, 301), [[d, 299.9], [p, 300.12], [a, 300.3]], 'moved, added, un-placeheld, removed');
    await store.setProperties(c, { exact_molecular_weight: 300.15, formal_charge: 0 });
    await index.sync();
    t.same(inRange(index, 1, 300, 301), [], 'a charge change moves a molecule between groups');
    t.same(inRange(index, 0, 300.14, 300.16), [[c, 300.15]]);

    // A rebuild from the store gives the same index as the merges.
    index.changed();
    await index.sync();
    t.same(inRange(index, 0, 299, 301), [[d, 299.9], [p, 300.12], [c, 300.15], [a, 300.3]], 'rebuilt');
  });
}
