/**
 * What the pool keeps (issue 3: the api's RSS doubled over 3,000 hostile requests).
 * - A WebAssembly memory never shrinks: a thread whose RDKit memory grew past twice its start is
 *   replaced after the task that grew it, and no task is lost or answered twice on the way.
 * - A task's input is not kept by its handle once the task ended (a polled job keeps the handle
 *   for JOB_RESULT_TTL; the input can be a PDF of 20 MB in base64).
 * - A V3000 molblock whose counts line declares a million atoms is refused before RDKit sizes
 *   its tables by it (that alone grew the memory from 16 to 35 MiB).
 */
import t from 'tap';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createInlineRunner } from '../../shared/jobs/inline.ts';
import { createPool, runTask } from '../../shared/threads/pool.ts';
import { testThreadConfig } from '../helpers/task.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1048576;

t.test('a thread whose RDKit memory outgrew its bound is replaced, and every task is answered', async (t) => {
  // The heavy-atom limit raised so that one input makes RDKit allocate tens of MiB.
  const pool = createPool(1, testThreadConfig({ MAX_HEAVY_ATOMS: 100_000 }));
  t.teardown(() => pool.destroy());
  const run = (smiles: string) => runTask(pool, 'generate_canonical_smiles', { smiles, toolkit: 'rdkit' }, { timeoutMs: 60_000 });
  t.equal(await run('OCC'), 'CCO');
  const [start] = pool.wasmMemory();
  const first = pool.threads[0]!.threadId;
  t.ok(start <= 32 * MiB, `RDKit starts with ${start / MiB} MiB`);

  // 20,000 methane molecules: one answer, and 40 MiB of WebAssembly memory for good.
  const fragments = Array(20_000).fill('C').join('.');
  // Tasks queued behind it on the same thread, some in the same batch, some after it.
  const alcohols = Array.from({ length: 24 }, (_, i) => `${'C'.repeat(1 + (i % 6))}O`);
  const behind = alcohols.map(run);
  const big = await run(fragments);
  t.equal(big, fragments, 'the task that grew the memory is answered');
  const answers = await Promise.all(behind);
  t.same(answers, alcohols, 'the tasks around it are answered (n-alkanols are their own canonical SMILES)');
  await new Promise((r) => setTimeout(r, 200));
  t.equal(pool.retired, 1, 'the thread asked to be replaced once');
  t.equal(await run('NCC'), 'CCN', 'the next task is answered');
  t.equal(pool.threads.length, 1, 'still one thread');
  t.not(pool.threads[0]!.threadId, first, 'by a fresh thread');
  t.equal(pool.wasmMemory()[0], start, `whose RDKit memory is back at ${start / MiB} MiB`);

  // Under the bound nothing is replaced.
  for (let i = 0; i < 50; i++) await run('c1ccccc1O');
  t.equal(pool.retired, 1, 'ordinary inputs replace nothing');
});

t.test('a finished job keeps its record, not its input', async (t) => {
  const pool = createPool(1, testThreadConfig());
  t.teardown(() => pool.destroy());
  const runner = createInlineRunner({
    execute: (task, args, hooks) => pool.run(task, args, hooks),
    timeouts: { quickMs: 30_000, longMs: 30_000, waitMs: 30_000, resultTtlSeconds: 3600 },
  });
  t.teardown(() => runner.close());
  let args: Record<string, unknown> | undefined = { smiles: 'OCC', toolkit: 'rdkit', padding: 'x'.repeat(4 * MiB) };
  const input = new WeakRef(args);
  const job = await runner.submit('generate_canonical_smiles', 'generate_canonical_smiles', args);
  args = undefined;
  const done = await runner.wait(job.id, 30_000);
  t.equal(done.status, 'succeeded');
  t.equal(done.result, 'CCO');
  for (let i = 0; i < 3 && input.deref(); i++) {
    await new Promise((r) => setTimeout(r, 50));
    gc();
  }
  t.equal(input.deref(), undefined, 'the input was collected');
  t.equal((await runner.get(job.id))?.result, 'CCO', 'while the record is still readable');
});

t.test('a V3000 counts line that lies about its size is refused before RDKit reads it', async (t) => {
  const pool = createPool(1, testThreadConfig());
  t.teardown(() => pool.destroy());
  t.equal(await runTask(pool, 'generate_canonical_smiles', { smiles: 'OCC', toolkit: 'rdkit' }, { timeoutMs: 30_000 }), 'CCO');
  const [start] = pool.wasmMemory();
  for (const counts of ['999999 0', '1 999999']) {
    const molblock = `\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS ${counts} 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 END ATOM\nM  V30 END CTAB\nM  END\n`;
    const err = await runTask(pool, 'generate_canonical_smiles', { smiles: molblock, toolkit: 'rdkit' }, { timeoutMs: 30_000 }).then(() => undefined, (e: unknown) => e);
    t.match(err, { status: 422, detail: /counts line declares \d+ atoms and \d+ bonds, its blocks list 1 and 0/ }, `COUNTS ${counts}: 422`);
  }
  t.equal(pool.wasmMemory()[0], start, 'RDKit memory unchanged');
  t.equal(pool.retired, 0);
});
