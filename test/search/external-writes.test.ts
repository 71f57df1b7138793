/**
 * Molecules written by another process on the same DATA_DIR (the import CLI) reach the inline
 * structure-search index: the store notices the foreign change at its next operation and the
 * index is rebuilt a second later. Also: molecules stored without fingerprints get them at start.
 */
import t from 'tap';
import { derivedFields } from '../../api/catalog/mutate/derived.ts';
import { EmbeddedStore } from '../../api/catalog/store/embedded.ts';
import { build } from '../helpers/app.ts';

t.test('a molecule imported by another process is found after the rebuild', async (t) => {
  const ctx = (await build(t, 'inline'))!;
  const { app, services, config } = ctx;
  // One molecule stored without fingerprints, as by an older version: the start backfills it.
  const old = await services.derive({ structure: 'CC(=O)Oc1ccccc1C(=O)O' });
  const { fingerprints: _drop, ...withoutFp } = derivedFields(old);
  await services.store.insert('molecules', { ...withoutFp, name: 'aspirin' });
  await services.searchIndex.start();
  const status = services.searchIndex.status() as { backfill: { done: number; state: string } };
  t.equal(status.backfill.state, 'done');
  t.equal(status.backfill.done, 1, 'one molecule backfilled');
  const stored = await services.store.findOne('molecules', { name: 'aspirin' });
  t.equal((stored?.fingerprints as { v: number }).v, 1, 'its fingerprints are stored');

  const find = async (query: string) =>
    (await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'substructure', query, count: true } })).json() as { total: number };
  t.equal((await find('OC(=O)c1ccccc1OC(C)=O')).total, 1, 'the backfilled molecule is searchable');

  const other = await EmbeddedStore.open(config.DATA_DIR);
  const d = await services.derive({ structure: 'Cn1cnc2c1c(=O)n(C)c(=O)n2C' });
  await other.insert('molecules', { ...derivedFields(d), name: 'caffeine' });
  await other.close();
  // Any store operation notices the foreign change; the rebuild follows a second later.
  await services.store.count('molecules', {});
  let total = 0;
  for (let i = 0; i < 50 && total === 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    // Similarity reads only the index (an exact-match hit would come from the store itself).
    const r = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'similarity', query: 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', threshold: 0.99, count: false } });
    if (r.statusCode === 200) total = r.json().total;
  }
  t.equal(total, 1, 'found after the rebuild');
});
