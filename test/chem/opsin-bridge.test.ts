/**
 * The OPSIN wrapper (api/names/opsin.ts): one long-lived process, answers matched to their
 * names, a timeout kills and restarts it, a death or an out-of-step answer restarts it, a start
 * failure is reported, idle stops it. Against a stand-in speaking the bridge's protocol
 * (fake-opsin.mjs, always runs), then against the real JVM (skipped loudly without Java + OPSIN).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { OpsinError, OpsinProcess, type OpsinOptions } from '../../api/names/opsin.ts';
import { locateOpsin, OPSIN_INSTALL_HINT } from '../../api/names/opsin-setup.ts';

const FAKE = fileURLToPath(new URL('./fake-opsin.mjs', import.meta.url));

function fake(t: { teardown: (fn: () => unknown) => void }, over: Partial<OpsinOptions> = {}): OpsinProcess {
  const b = new OpsinProcess({ java: 'unused', jar: 'unused', timeoutMs: 5000, idleMs: 0, command: { file: process.execPath, args: [FAKE] }, ...over });
  t.teardown(() => b.close());
  return b;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function rejection(p: Promise<unknown>): Promise<OpsinError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OpsinError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

t.test('one process answers every name with its own answer, in order, noise before READY ignored', async (t) => {
  const b = fake(t);
  const names = Array.from({ length: 50 }, (_, i) => `name ${i}`);
  const answers = await Promise.all(names.map((n) => b.parse(n)));
  t.same(answers.map((a) => (a.ok ? a.smiles : null)), names);
  t.equal(b.stats.starts, 1, 'one process for all names');
  t.equal(b.version, 'fake-1.0');
  t.same(await b.parse('unknown'), { ok: false, message: 'unknown is unparsable' });
  t.same(await b.parse('warn'), { ok: true, smiles: 'CC', warning: 'stereo ignored' });
  t.same(await b.parse('two\nlines'), { ok: false, message: 'a name is one line of text without control characters' }, 'refused before the process');
});

t.test('a name past its time limit: the process is killed, the names behind it go to a new one', async (t) => {
  const b = fake(t);
  await b.parse('warm');
  const first = b.pid!;
  const hung = rejection(b.parse('hang', 300));
  const behind = [b.parse('after 1'), b.parse('after 2')];
  const e = await hung;
  t.equal(e.kind, 'timeout');
  t.match(e.message, /300 ms/);
  t.same((await Promise.all(behind)).map((a) => a.ok && a.smiles), ['after 1', 'after 2'], 'queued names answered');
  t.equal(b.stats.starts, 2);
  t.equal(b.stats.timeouts, 1);
  t.not(b.pid, first, 'a new process');
  await new Promise((r) => setTimeout(r, 100));
  t.notOk(alive(first), 'the old process is gone');
});

t.test('a process that dies under a name fails that name and is restarted for the next', async (t) => {
  const b = fake(t);
  await b.parse('warm');
  const e = await rejection(b.parse('die'));
  t.equal(e.kind, 'died');
  t.match(e.message, /exit code 3/);
  t.same(await b.parse('next'), { ok: true, smiles: 'next' });
  t.equal(b.stats.starts, 2);
  t.equal(b.stats.deaths, 1);
});

t.test('a process killed from outside while idle is restarted at the next name', async (t) => {
  const b = fake(t);
  await b.parse('warm');
  const pid = b.pid!;
  process.kill(pid, 'SIGKILL');
  // Idle means the bridge has seen the death (its 'exit' event) before the next name comes: on a
  // busy machine that takes more than a fixed pause, so wait for it (a name sent before it is
  // one in flight when the JVM dies, the case of the previous test).
  for (let i = 0; i < 200 && b.stats.deaths === 0; i++) await new Promise((r) => setTimeout(r, 50));
  t.equal(b.stats.deaths, 1, 'the bridge saw the death');
  t.same(await b.parse('again'), { ok: true, smiles: 'again' });
  t.equal(b.stats.starts, 2);
});

t.test('an answer out of step kills the process rather than hand out a wrong structure', async (t) => {
  const b = fake(t);
  const e = await rejection(b.parse('skew'));
  t.equal(e.kind, 'protocol');
  t.same(await b.parse('fine'), { ok: true, smiles: 'fine' });
  t.equal(b.stats.starts, 2);
});

t.test('a process that cannot start fails the waiting names, then fails fast for a while', async (t) => {
  const b = fake(t, { command: { file: process.execPath, args: ['-e', 'console.error("no OPSIN here"); process.exit(1)'] } });
  const e = await rejection(b.parse('caffeine'));
  t.equal(e.kind, 'unavailable');
  t.match(e.message, /OPSIN could not start: .*exit code 1.*no OPSIN here/);
  const again = await rejection(b.parse('caffeine'));
  t.equal(again.kind, 'unavailable', 'within the cooldown');
  t.equal(b.stats.starts, 1, 'no second start during the cooldown');

  const missing = fake(t, { command: { file: '/nonexistent/java', args: [] } });
  t.match((await rejection(missing.parse('caffeine'))).message, /could not run \/nonexistent\/java/);

  const slow = fake(t, { startTimeoutMs: 200, command: { file: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'] } });
  t.match((await rejection(slow.parse('caffeine'))).message, /no READY from the JVM within 200 ms/);
});

t.test('idle: the process stops, and the next name starts a new one', async (t) => {
  const b = fake(t, { idleMs: 100 });
  await b.parse('one');
  const pid = b.pid!;
  await new Promise((r) => setTimeout(r, 400));
  t.notOk(b.running, 'stopped after idleMs');
  t.notOk(alive(pid));
  t.same(await b.parse('two'), { ok: true, smiles: 'two' });
  t.equal(b.stats.starts, 2);
});

t.test('close fails waiting names and stops the process', async (t) => {
  const b = fake(t);
  await b.parse('warm');
  const pid = b.pid!;
  const hung = rejection(b.parse('hang'));
  const waiting = rejection(b.parse('waiting'));
  await b.close();
  t.equal((await hung).kind, 'closed');
  t.equal((await waiting).kind, 'closed');
  t.notOk(alive(pid));
  t.equal((await rejection(b.parse('late'))).kind, 'closed');
});

const setup = locateOpsin();
const reason = !setup.java || !setup.jar ? `no Java + OPSIN (${setup.problem}); ${OPSIN_INSTALL_HINT}` : false;
if (reason) console.log(`# ${reason}`);

t.test('the real JVM: killed between names, restarted; a name past its limit restarts it', { skip: reason }, async (t) => {
  const b = new OpsinProcess({ java: setup.java!, jar: setup.jar!, timeoutMs: 30_000, idleMs: 0 });
  t.teardown(() => b.close());
  const caffeine = await b.parse('caffeine');
  t.ok(caffeine.ok, 'caffeine read');
  t.match(b.version ?? '', /^\d+\.\d+/, `OPSIN ${b.version}`);
  const pid = b.pid!;
  t.match(execFileSync('ps', ['-o', 'args=', '-p', String(pid)]).toString(), /NatprodOpsin/, 'one JVM running the bridge');
  process.kill(pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  t.same(await b.parse('caffeine'), caffeine, 'same answer from a restarted JVM');
  t.equal(b.stats.starts, 2);

  const pending = rejection(b.parse('2,2-dimethylpropane', 1));
  // A warm JVM can answer within 1 ms: the main thread is held past the limit, so the limit's timer
  // runs before the answer is read (libuv runs due timers before it polls for I/O), whatever the JVM's speed.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  const e = await pending;
  t.equal(e.kind, 'timeout', 'a 1 ms limit cannot be met');
  const after = await b.parse('2,2-dimethylpropane');
  t.same(after, { ok: true, smiles: 'CC(C)(C)C' }, 'the restarted JVM answers');
  t.equal(b.stats.starts, 3);
  t.equal(b.stats.timeouts, 1);
  const failed = await b.parse('notaname xyz');
  t.notOk(failed.ok, 'a name OPSIN cannot read is an answer, not an error');
  t.match(!failed.ok && failed.message, /unparsable|uninterpretable/);
});
