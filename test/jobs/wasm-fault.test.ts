/**
 * A trap inside RDKit's WASM poisons that thread's module (afterwards even "CCO" fails to parse).
 * With the heavy-atom limit raised far above what the WASM stack takes, a long chain makes RDKit
 * trap for real: the task must end as a 422 naming the fault (not retried), the thread must be
 * replaced, and the next tasks on the same one-thread pool must give right answers again.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { AppError } from '../../shared/errors.ts';
import { createPool, runTask } from '../../shared/threads/pool.ts';
import { testThreadConfig } from '../helpers/task.ts';


const reference = JSON.parse(readFileSync(new URL('../fixtures/convert-reference.json', import.meta.url), 'utf8')) as {
  records: { name: string; input_smiles: string; inchikey: string }[];
};

t.test('a WASM fault is a 422 and the thread is replaced', async (t) => {
  const pool = createPool(1, testThreadConfig({ MAX_HEAVY_ATOMS: 100_000 }));
  t.teardown(() => pool.destroy());
  const run = (smiles: string) => runTask(pool, 'generate_canonical_smiles', { smiles, toolkit: 'rdkit' }, { timeoutMs: 60_000 });

  t.equal(await run('OCC'), 'CCO', 'the pool works before the fault');
  const before = pool.threads[0]?.threadId;

  const err = await run('C'.repeat(2000)).then(() => undefined, (e: unknown) => e);
  t.ok(err instanceof AppError, 'an AppError');
  const app = err as AppError;
  t.equal(app.status, 422);
  t.equal(app.code, 'wasm_fault');
  t.match(String(app.detail), /RDKit could not process this structure \(WebAssembly fault: .+\)/);

  // Answers after the fault come from a fresh module: compared with the native InChI tool's.
  t.equal(await run('OCC'), 'CCO', 'ethanol after the fault');
  for (const r of reference.records.slice(0, 10)) {
    const key = await runTask(pool, 'generate_inchikey', { smiles: r.input_smiles, toolkit: 'rdkit' }, { timeoutMs: 60_000 });
    t.equal(key, r.inchikey, `${r.name}: InChIKey after the fault equals the InChI tool's`);
  }
  // A task handed to the same thread behind the faulting one is run by the next thread.
  const [faulted, behind] = await Promise.all([run('C'.repeat(2000)).then(() => undefined, (e: unknown) => e), run('NCC')]);
  t.match(faulted, { status: 422, code: 'wasm_fault' });
  t.equal(behind, 'CCN', 'the task queued behind the fault is answered by a fresh thread');
  t.equal(pool.threads.length, 1, 'still one thread');
  t.not(pool.threads[0]?.threadId, before, 'a different thread than the one that faulted');

  // In the middle of a batch (a backlog of quick tasks on one thread): the tasks before the fault
  // keep their answers, the ones after it are run by the next thread.
  const sent = pool.sent.messages;
  const inputs = Array.from({ length: 14 }, (_, i) => (i === 8 ? 'C'.repeat(2000) : `${'C'.repeat(1 + (i % 5))}O`));
  const answers = await Promise.all(inputs.map((s) => run(s).then((v) => v, (e: unknown) => e)));
  t.ok(pool.sent.messages - sent < inputs.length, 'the tasks travelled in batches');
  answers.forEach((a, i) => {
    if (i === 8) t.match(a, { status: 422, code: 'wasm_fault' }, 'the faulting task: 422');
    else t.equal(a, inputs[i], `task ${i}: its answer`);
  });
});
