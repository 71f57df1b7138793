/**
 * The query InChIKeys the api keeps (api/catalog/search/structure/structure.ts `queryKey`): a
 * query's key is asked of a thread once, then answered from memory, per query text and type;
 * a query that cannot be read is asked again each time (never kept); the oldest of more than
 * 1,024 is dropped. The keys come from a real pool thread (RDKit's InChI), so the kept answer is
 * checked against a fresh one.
 */
import t from 'tap';
import { StructureSearch } from '../../api/catalog/search/structure/structure.ts';
import { createInlineRunner } from '../../shared/jobs/inline.ts';
import { createPool } from '../../shared/threads/pool.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';

t.test('a query key is computed once, then kept', async (t) => {
  const pool = createPool(1, threadConfig(loadConfig({ WORKERS: '1', LOG_LEVEL: 'silent' })));
  const inline = createInlineRunner({
    execute: (task, args, hooks) => pool.run(task, args, hooks),
    timeouts: { quickMs: 60_000, longMs: 60_000, waitMs: 60_000, resultTtlSeconds: 60 },
  });
  t.teardown(async () => {
    await inline.close();
    await pool.destroy();
  });
  const asked: string[] = [];
  const runner = new Proxy(inline, {
    get(target, prop, receiver) {
      if (prop !== 'runTask') return Reflect.get(target, prop, receiver);
      return (op: string, task: string, args: { query: string }) => {
        asked.push(args.query);
        return (target.runTask as (...a: unknown[]) => unknown)(op, task, args);
      };
    },
  }) as JobRunner;
  const search = new StructureSearch(runner, {} as CatalogStore);

  const ethanol = await search.queryKey('CCO');
  t.equal(ethanol, 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N', 'the key RDKit computes');
  t.equal(await search.queryKey(' CCO '), ethanol, 'asked again (surrounding blanks aside): the same key');
  t.same(asked, ['CCO'], 'and a thread asked only once');
  t.equal(await search.queryKey('OCC'), ethanol, 'another text of the same molecule is its own entry');
  t.same(asked, ['CCO', 'OCC']);
  t.equal(await search.queryKey('LFQSCWFLJHTTHZ-UHFFFAOYSA-N'), ethanol, 'an InChIKey is its own key');
  t.equal(asked.length, 2, 'without a thread');

  for (let i = 0; i < 2; i++) {
    const e = await search.queryKey('C1CC').catch((x) => x);
    t.equal(e.status, 422, `an unreadable query is a 422 (try ${i + 1})`);
  }
  t.same(asked.slice(2), ['C1CC', 'C1CC'], 'and is never kept');

  // 1,024 more queries: CCO is the oldest kept, and is dropped; OCC, asked again meanwhile, stays.
  await search.queryKey('OCC');
  for (let n = 1; n <= 1023; n++) await search.queryKey(`${'C'.repeat(n % 40 + 1)}${n >= 40 ? `O${'C'.repeat(Math.floor(n / 40))}` : ''}`);
  const before = asked.length;
  t.equal(await search.queryKey('OCC'), ethanol);
  t.equal(asked.length, before, 'a recently used key stays');
  t.equal(await search.queryKey('CCO'), ethanol);
  t.equal(asked.length, before + 1, 'the least recently used one was dropped and is computed again');
});
