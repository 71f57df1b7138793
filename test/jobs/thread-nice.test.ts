/**
 * THREAD_NICE (shared/config.ts): the chemistry threads run below the process's main thread, so
 * that the threads handing work around get the cores first; 0 leaves them as the process. Read
 * back from /proc (Linux: field 19 of a thread's stat is its niceness).
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createPool, runTask } from '../../shared/threads/pool.ts';
import { testThreadConfig } from '../helpers/task.ts';

const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
const niceness = () => readdirSync('/proc/self/task').map(niceOf);

t.test('the chemistry threads run at THREAD_NICE, the rest of the process as it was', { skip: existsSync('/proc/thread-self') ? false : 'no /proc/thread-self (not Linux): THREAD_NICE does nothing here' }, async (t) => {
  const own = niceOf(String(process.pid));
  const pool = createPool(2, testThreadConfig({ THREAD_NICE: 7 }));
  t.teardown(() => pool.destroy());
  t.equal(await runTask(pool, 'generate_canonical_smiles', { smiles: 'OCC', toolkit: 'rdkit' }, { timeoutMs: 30_000 }), 'CCO');
  await Promise.all([1, 2, 3, 4].map(() => runTask(pool, 'generate_canonical_smiles', { smiles: 'c1ccccc1O', toolkit: 'rdkit' }, { timeoutMs: 30_000 })));
  const after = niceness();
  t.equal(after.filter((n) => n === Math.min(19, own + 7)).length, 2, 'both chemistry threads are 7 above the process');
  t.equal(niceOf(String(process.pid)), own, 'the main thread keeps its niceness');
  t.same([...new Set(after.filter((n) => n !== Math.min(19, own + 7)))], [own], 'every other thread too');
});

t.test('THREAD_NICE=0 leaves the threads as the process', { skip: existsSync('/proc/thread-self') ? false : 'not Linux' }, async (t) => {
  const own = niceOf(String(process.pid));
  const pool = createPool(1, testThreadConfig({ THREAD_NICE: 0 }));
  t.teardown(() => pool.destroy());
  t.equal(await runTask(pool, 'generate_canonical_smiles', { smiles: 'OCC', toolkit: 'rdkit' }, { timeoutMs: 30_000 }), 'CCO');
  t.same([...new Set(niceness())], [own], 'every thread as the process');
});
