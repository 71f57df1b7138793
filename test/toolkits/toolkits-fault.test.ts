/**
 * A toolkit sidecar killed mid-load (SIGKILL, as a crash or the OOM killer would): the call it
 * was working on is a 503 naming the toolkit, every other call of the load is answered as if
 * nothing happened (they go to a fresh sidecar), and the next calls are served. Skipped with the
 * reason when the toolkit is not installed.
 */
import t from 'tap';
import { build } from '../helpers/app.ts';
import { locateCdk, locateOpenBabel } from '../../shared/toolkits/index.ts';

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
