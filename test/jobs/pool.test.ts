/**
 * The chemistry pool's own guarantees, on one real thread: first in, first out under a backlog;
 * a task stuck past its time limit is a 504 and its thread is replaced; a task cancelled while
 * queued never runs; a cancelled running task stops.
 */
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import { createPool } from '../../shared/threads/pool.ts';
import { testThreadConfig } from '../helpers/task.ts';

const pool = createPool(1, testThreadConfig());
t.teardown(() => pool.destroy());
const canon = (smiles: string) => pool.run('generate_canonical_smiles', { smiles, toolkit: 'rdkit' }, { timeoutMs: 60_000 });
/** Structure generation with every restriction off: millions of isomers, runs until stopped. */
const ENDLESS = { molecular_formula: 'C10H16O2', limit: 10, max_heavy_atoms: 12, planar: false, allow_triple_bonds: true, bad_substructures: 'none', allow_3_rings: true, allow_4_cycles: true };

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => AppError.from(e));

t.test('tasks finish in the order they were submitted', async (t) => {
  await canon('C');
  const order: number[] = [];
  const chains = Array.from({ length: 60 }, (_, i) => `${'C'.repeat(1 + (i % 7))}O`);
  await Promise.all(chains.map((s, i) => canon(s).then(() => order.push(i))));
  t.same(order, chains.map((_, i) => i), 'first in, first out');
});

t.test('under a backlog quick tasks travel several per message, each with its own answer', async (t) => {
  const before = { ...pool.sent };
  const inputs = Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? 'C1CC(' : `${'C'.repeat(1 + (i % 4))}N`));
  const answers = await Promise.all(inputs.map((s) => canon(s).then((v) => v, (e: unknown) => AppError.from(e))));
  answers.forEach((a, i) => {
    if (i % 5 === 4) t.match(a, { status: 422 }, `${inputs[i]}: its own 422`);
    else t.equal(a, inputs[i], `${inputs[i]}: its own answer`);
  });
  const messages = pool.sent.messages - before.messages;
  t.equal(pool.sent.tasks - before.tasks, 40, '40 tasks sent');
  t.ok(messages < 40, `in ${messages} messages`);
});

t.test('a task past its time limit: 504, and a new thread takes over', async (t) => {
  const before = pool.threads[0]?.threadId;
  const e = await failure(pool.run('generate_structures', ENDLESS, { timeoutMs: 500 }));
  t.match(e, { status: 504, code: 'timeout' });
  t.equal(await canon('OCC'), 'CCO', 'the pool answers after the timeout');
  t.equal(pool.threads.length, 1);
  t.ok(before !== undefined, 'a thread was running before');
});

t.test('cancelling: a queued task never runs, a running one stops', async (t) => {
  const seen: unknown[] = [];
  const running = pool.run('generate_structures', ENDLESS, { timeoutMs: 60_000, onProgress: (v) => seen.push(v) });
  for (let i = 0; i < 200 && !seen.length; i++) await new Promise((r) => setTimeout(r, 50));
  t.ok(running.started(), 'the first task runs');
  t.ok(seen.length > 0, 'it reports progress');
  const queued = pool.run('generate_canonical_smiles', { smiles: 'CCCC', toolkit: 'rdkit' }, { timeoutMs: 60_000 });
  t.notOk(queued.started(), 'the second waits');
  queued.cancel();
  t.match(await failure(queued), { status: 499, code: 'cancelled' }, 'cancelled while queued, at once');
  running.cancel();
  t.match(await failure(running), { status: 499, code: 'cancelled' });
  t.equal(await canon('NCC'), 'CCN', 'the next task runs');
  t.same(pool.load(), { waiting: 0, active: 0 }, 'nothing left in flight');
});

t.test('a local task that fans out to many pool tasks on its signal: each answered, no listener warning', async (t) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  // As a toolkit route does (shared/toolkits/index.ts): RDKit tasks started with the local task's signal.
  const chains = Array.from({ length: 16 }, (_, i) => `${'C'.repeat(1 + i)}O`);
  pool.registerLocal('fan_out_test', (args, signal) =>
    Promise.all((args as { smiles: string[] }).smiles.map((s) => pool.run('generate_canonical_smiles', { smiles: s, toolkit: 'rdkit' }, { timeoutMs: 60_000, signal }))));
  t.same(await pool.run('fan_out_test', { smiles: chains }, { timeoutMs: 60_000 }), chains, 'each its own answer (linear alcohols are written as given)');
  await new Promise((r) => setImmediate(r));
  t.same(warnings, [], 'sixteen listeners on one signal are not a leak');
});
