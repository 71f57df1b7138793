/**
 * The typed task boundary (shared/ops/task-types.ts) and the api-side handler table
 * (api/chem/handlers/index.ts).
 *
 * Compile time: `npx tsc --noEmit -p .` checks this file. Each `@ts-expect-error` line below is a
 * mistake the types must refuse (a misnamed task, a wrong argument shape, a result used as the
 * wrong type, a missing, extra or mistyped api-side handler): were any of them accepted, the
 * directive itself would be the compile error. The function holding them is never called.
 *
 * Run time: an internal task's payload is checked in the thread against its zod schema; a bad
 * one is a 422 naming the task, through a real pool thread as through the task table.
 */
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import { OPERATIONS } from '../../shared/ops/index.ts';
import type { RegisteredOp } from '../../shared/ops/index.ts';
import { runPoolTask, type TaskArgs, type TaskResult } from '../../shared/ops/task-types.ts';
import { TASKS } from '../../shared/ops/tasks.ts';
import type { TaskContext } from '../../shared/ops/types.ts';
import { createPool } from '../../shared/threads/pool.ts';
import type { ApiContext, ApiHandlers } from '../../api/chem/context.ts';
import { API_HANDLERS } from '../../api/chem/handlers/index.ts';
import { testThreadConfig } from '../helpers/task.ts';

type Handlers = ApiHandlers<readonly RegisteredOp[]>;

// Never called: only compiled.
export async function compileTimeChecks(runner: JobRunner, ctx: ApiContext): Promise<void> {
  // Typed calls need no casts: the answers have their task's result type.
  const key: { inchikey: string; canonical_smiles: string } = await runner.runTask('op', 'chemclass_key', { smiles: 'CCO' });
  const blocks: (string | null)[] = await runner.runTask('op', 'catalog_molblocks', { smiles: ['CCO'] });
  const lookup: TaskResult<'extdb_lookup'> = await runner.runTask('op', 'extdb_lookup', { identifier: 'caffeine' });
  const canonical: string = await runner.runTask('op', 'generate_canonical_smiles', { smiles: 'CCO', toolkit: 'rdkit', auto_detect: false });
  const search: TaskResult<'catalog_search'> = await runner.runTask('op', 'catalog_search', { type: 'similarity', query: 'CCO', query_type: 'smiles', offset: 0, limit: 10 });
  // A schema default makes the argument optional for callers (z.input).
  const smilesArgs: TaskArgs<'generate_smiles'> = { input_text: 'CCO' };
  void [key, blocks, lookup, canonical, search, smilesArgs];

  // @ts-expect-error a task name that does not exist (misspelled internal task)
  await runner.runTask('op', 'chemclass_keys', { smiles: 'CCO' });
  // @ts-expect-error a wrong argument shape: chemclass_key takes {smiles}
  await runner.runTask('op', 'chemclass_key', { smile: 'CCO' });
  // @ts-expect-error a wrong argument type: catalog_molblocks takes a list of SMILES
  await runner.runTask('op', 'catalog_molblocks', { smiles: 'CCO' });
  // @ts-expect-error a missing argument: chemclass_classify needs the InChIKey too
  await runner.submitTask('op', 'chemclass_classify', { smiles: 'CCO' });
  // @ts-expect-error the answer of catalog_query_key is {inchikey}, not a string
  const wrongResult: string = await runner.runTask('op', 'catalog_query_key', { query: 'CCO', query_type: 'smiles' });
  // @ts-expect-error a public operation's task takes that operation's arguments
  await runner.runTask('op', 'generate_canonical_smiles', { smiles: 42 });
  // @ts-expect-error the pool's typed call checks the same way
  void runPoolTask(null as never, 'catalog_scan_similarity', { query: 'CCO' }, { timeoutMs: 1 });
  void wrongResult;

  // The api-side handler table: exactly one handler per operation flagged handler: 'api'.
  const { generate_smiles, retrieve_extdb_smiles, generate_chemclass_classifications, retrieve_chemclass_results, batch_convert_convert_batch_post } = API_HANDLERS;
  const complete = { generate_smiles, retrieve_extdb_smiles, generate_chemclass_classifications, retrieve_chemclass_results, batch_convert_convert_batch_post } satisfies Handlers;
  // @ts-expect-error a missing api-side handler (retrieve_chemclass_results)
  const missing = { generate_smiles, retrieve_extdb_smiles, generate_chemclass_classifications, batch_convert_convert_batch_post } satisfies Handlers;
  // @ts-expect-error an extra handler for an operation that has none (generate_inchi runs its task)
  const extra = { ...complete, generate_inchi: generate_smiles } satisfies Handlers;
  // @ts-expect-error a handler expecting other arguments than its operation's schema gives
  const mistyped = { ...complete, retrieve_extdb_smiles: async (args: { cid: number }) => args.cid } satisfies Handlers;
  void [missing, extra, mistyped];
  await complete.retrieve_extdb_smiles({ identifier: 'caffeine' }, ctx);
  // @ts-expect-error a handler called with another operation's arguments
  await complete.retrieve_extdb_smiles({ smiles: 'CCO' }, ctx);
}

t.test('every operation flagged handler: api has its handler, and no other operation does', async (t) => {
  const flagged = OPERATIONS.filter((op) => op.handler === 'api').map((op) => op.name).sort();
  t.same(Object.keys(API_HANDLERS).sort(), flagged);
  t.ok(flagged.length > 0);
});

/** The error a call ends with, as an AppError (undefined when it succeeds or throws something else). */
async function failure(call: () => unknown): Promise<AppError | undefined> {
  try {
    await call();
  } catch (e) {
    return AppError.from(e);
  }
  return undefined;
}

t.test('a bad internal-task payload is a 422 naming the task (task table)', async (t) => {
  const ctx = { signal: new AbortController().signal, progress: () => {}, config: testThreadConfig() } as unknown as TaskContext;
  const bad: Record<string, unknown> = {
    derive_molecule: { structure: 42 },
    catalog_index_rows: { rows: 'CCO' },
    catalog_fingerprints: { rows: [{ id: 'x', smiles: 'CCO' }] },
    catalog_scan_similarity: { query: 'CCO' },
    catalog_scan_substructure: { query: 'CCO', use_chirality: 'no' },
    catalog_scan_first_hits: { query: 'CCO', query_type: 'smiles', from: 0, to: 1, use_chirality: false, need: 3, lane: 2, lanes: 2, board: new SharedArrayBuffer(4) },
    catalog_query_key: { query: 'CCO', query_type: 'inchi' },
    catalog_molblocks: { smiles: [1, 2] },
    generate_smiles: { representation: 'smiles' },
    extdb_lookup: {},
    chemclass_key: { smiles: '' },
    chemclass_classify: { smiles: 'CCO' },
  };
  for (const [task, args] of Object.entries(bad)) {
    const e = await failure(() => TASKS[task](args, ctx));
    t.equal(e?.status, 422, `${task}: a bad payload is a 422`);
    t.match(String(e?.detail), `Invalid arguments for task ${task}:`, `${task}: the detail names the task`);
  }
});

t.test('a bad internal-task payload is a 422 naming the task (through a pool thread)', async (t) => {
  const pool = createPool(1, testThreadConfig());
  t.teardown(() => pool.destroy());
  const e = await failure(() => pool.run('catalog_molblocks', { smiles: 'CCO' }, { timeoutMs: 60_000 }));
  t.equal(e?.status, 422, 'a bad payload is a 422');
  t.match(String(e?.detail), 'Invalid arguments for task catalog_molblocks: smiles:', 'naming the task and the argument');
  // A good payload still runs: the parsed value reaches the handler.
  t.same(await runPoolTask(pool, 'chemclass_key', { smiles: 'OCC' }, { timeoutMs: 60_000 }), { inchikey: 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N', canonical_smiles: 'CCO' });
});
