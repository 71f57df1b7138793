/**
 * A toolkit sidecar killed mid-load (SIGKILL, as the OOM killer or an operator would): the call it
 * was working on is a 503 naming the toolkit, every other call of the load is answered as if
 * nothing happened (they go to a fresh sidecar), and the next calls are served. A sidecar that
 * crashes under a call (SIGABRT, SIGSEGV: the toolkit failed on that input) makes that call a 422.
 * Skipped with the reason when the toolkit is not installed.
 */
import t from 'tap';
import { build } from '../helpers/app.ts';
import { locateCdk, locateOpenBabel, Toolkits } from '../../shared/toolkits/index.ts';
import { loadConfig } from '../../shared/config.ts';

const { app, services } = (await build(t, 'inline'))!;
const LOTUS = ['CC(C)[C@H](N)C(=O)O', 'CC1=CC=C(C(C)C)CC1', 'COc1cc2c(cc1O)-c1cc3ccc(OC)c(OC)c3c[n+]1CC2', 'C=C[C@](C)(O)CC/C=C(\\C)CCC=C(C)C'];

for (const [toolkit, located, url, label] of [
  ['openbabel', locateOpenBabel(), '/convert/canonicalsmiles', 'Open Babel'],
  ['cdk', locateCdk(), '/convert/mol2D', 'CDK'],
] as const) {
  t.test(`${label}: killed mid-load, one 503, nothing else lost, then served again`, { skip: located.ok ? false : `${label} not installed: ${located.problem}` }, async (t) => {
    const ask = (smiles: string) => app.inject({ url, query: { smiles, toolkit } });
    // A molblock without its header (it holds a timestamp); a JSON string as it is.
    const answer = (body: string) => (body.includes('\n') ? body.split('\n').slice(3).join('\n') : body);
    const expected = new Map<string, string>();
    for (const s of LOTUS) expected.set(s, answer((await ask(s)).body));
    const sidecar = services.toolkits.sidecar(toolkit);
    const pid = sidecar.pid!;
    t.ok(pid, 'the sidecar runs');
    const load = Array.from({ length: 200 }, (_, i) => LOTUS[i % LOTUS.length]);
    let killed = false;
    const answers = await Promise.all(
      load.map(async (s, i) => {
        const res = await ask(s);
        if (i >= 5 && !killed) {
          killed = true;
          process.kill(pid, 'SIGKILL');
        }
        return { s, res };
      }),
    );
    const failed = answers.filter((a) => a.res.statusCode !== 200);
    t.ok(killed, 'killed while calls were in flight');
    t.ok(failed.length <= 1, `at most the call in the sidecar failed (${failed.length})`);
    for (const f of failed) {
      t.equal(f.res.statusCode, 503);
      t.match(f.res.json().detail, new RegExp(`${label} \\(toolkit=${toolkit}\\) is unavailable`));
    }
    const wrong = answers.filter((a) => a.res.statusCode === 200 && answer(a.res.body) !== expected.get(a.s));
    t.equal(wrong.length, 0, 'every other call has its own right answer');
    t.not(sidecar.pid, pid, 'a fresh sidecar');
    t.equal((await ask(LOTUS[0])).statusCode, 200, 'served again');
    t.match(sidecar.stats, { deaths: 1 });
  });
}

// The 504 path: a call past TOOLKIT_TIMEOUT_MS (the sidecar's own `sleep` op, a stand-in for a slow
// input) is a 504 naming the toolkit; the sidecar is killed and the next call is served by a fresh one.
for (const [toolkit, located, label] of [['openbabel', locateOpenBabel(), 'Open Babel'], ['cdk', locateCdk(), 'CDK']] as const) {
  t.test(`${label}: a call past TOOLKIT_TIMEOUT_MS is a 504, then served again`, { skip: located.ok ? false : `${label} not installed: ${located.problem}` }, async (t) => {
    const kits = new Toolkits(loadConfig({ TOOLKIT_TIMEOUT_MS: toolkit === 'cdk' ? '3000' : '1500' }));
    t.teardown(() => kits.close());
    t.equal(await kits.call(toolkit, { op: 'ping' }), 'pong', 'started');
    const pid = kits.sidecar(toolkit).pid;
    const e = (await kits.call(toolkit, { op: 'sleep', ms: 20_000 }).catch((x: unknown) => x)) as { status: number; detail: string };
    t.equal(e.status, 504);
    t.match(e.detail, new RegExp(`^${label} \\(toolkit=${toolkit}\\)`), 'names the toolkit');
    t.equal(await kits.call(toolkit, { op: 'ping' }), 'pong', 'served again');
    t.not(kits.sidecar(toolkit).pid, pid, 'by a fresh sidecar');
    t.match(kits.sidecar(toolkit).stats, { timeouts: 1 });
  });
}

// A crash under a call (the toolkit aborted or faulted on its input, as Open Babel's std::bad_alloc
// past the sidecar's 2 GB did) is that input's 422, not a 503; a SIGKILL from outside stays a 503.
for (const [toolkit, located, label] of [['openbabel', locateOpenBabel(), 'Open Babel'], ['cdk', locateCdk(), 'CDK']] as const) {
  t.test(`${label}: a sidecar that crashes under a call answers it 422, then serves again`, { skip: located.ok ? false : `${label} not installed: ${located.problem}` }, async (t) => {
    const kits = new Toolkits(loadConfig({ TOOLKIT_TIMEOUT_MS: '20000' }));
    t.teardown(() => kits.close());
    for (const [signal, status, detail] of [
      ['SIGABRT', 422, new RegExp(`^${label} \\(toolkit=${toolkit}\\) crashed on this input: ${label} ended \\(killed by SIGABRT\\)`)],
      ['SIGSEGV', 422, new RegExp(`^${label} \\(toolkit=${toolkit}\\) crashed on this input: ${label} ended \\(killed by SIGSEGV\\)`)],
      ['SIGKILL', 503, new RegExp(`^${label} \\(toolkit=${toolkit}\\) is unavailable: ${label} ended \\(killed by SIGKILL\\)`)],
    ] as const) {
      // The JVM handles SIGSEGV itself (its null checks): a fault that ends CDK's JVM is an abort.
      if (toolkit === 'cdk' && signal === 'SIGSEGV') continue;
      t.equal(await kits.call(toolkit, { op: 'ping' }), 'pong', `${signal}: started`);
      const pid = kits.sidecar(toolkit).pid!;
      const pending = kits.call(toolkit, { op: 'sleep', ms: 15_000 }).catch((x: unknown) => x) as Promise<{ status: number; detail: string }>;
      await new Promise((r) => setTimeout(r, 300));
      process.kill(pid, signal);
      const e = await pending;
      t.equal(e.status, status, `${signal} under the call: ${status}`);
      t.match(e.detail, detail, 'names the toolkit and how it ended');
      t.equal(await kits.call(toolkit, { op: 'ping' }), 'pong', `${signal}: served again`);
      t.not(kits.sidecar(toolkit).pid, pid, 'by a fresh sidecar');
    }
  });
}
