/**
 * Fault (issue 15.2d): the embedded store survives SIGKILL of the api during writes. Inline mode
 * (no Redis): an api process takes catalog creates over HTTP from several clients at once
 * (organisms, and molecules, whose structures are derived on the api's chemistry threads), and is
 * killed with SIGKILL mid-stream. Restarted on the same DATA_DIR, the store must open (no
 * corrupted file) and hold every write whose 200 arrived before the kill.
 *
 * Twice: once restarted as usual, once restarted under the pid of the killed process, which a
 * container gives its main process every time (the api is pid 1 in the image): the lock file the
 * killed api left behind names that pid, and must still be seen as stale.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { EmbeddedStore } from '../../api/catalog/store/embedded.ts';
import { ROOT, type Answer, type Service, ready, request, serviceEnv, sleep, startApi, tempDir } from './procs.ts';

const run = promisify(execFile);

interface Acked {
  resource: 'organisms' | 'molecules';
  name: string;
  id: number;
}

/** Creates from `clients` writers until stopped; the acknowledged ones are pushed to `acked`. */
function writers(base: string, token: string, tag: string, acked: Acked[], answers: Answer[]) {
  let stop = false;
  let n = 0;
  const one = async (resource: Acked['resource']) => {
    while (!stop) {
      const i = n++;
      const name = `${tag}-${resource}-${i}`;
      // Molecules: distinct alkyl chains with an alcohol, each a structure of its own.
      const attributes = resource === 'organisms' ? { name, rank: 'species' } : { name, canonical_smiles: 'C'.repeat(1 + (i % 40)) + 'O'.repeat(1 + Math.floor(i / 40)) };
      const a = await request(`${base}/api/${resource}/mutate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mutate: [{ operation: 'create', attributes }] }),
        timeoutMs: 20_000,
      });
      answers.push(a);
      if (a.status === 200) acked.push({ resource, name, id: (a.body as { created: number[] }).created[0]! });
      if (a.status !== 0 && a.status !== 200 && a.status !== 422) throw new Error(`unexpected answer ${a.status}: ${JSON.stringify(a.body)}`);
      if (a.status === 0) return; // the api is gone
    }
  };
  const all = Promise.all([one('organisms'), one('organisms'), one('organisms'), one('molecules')]);
  return {
    stop: () => {
      stop = true;
      return all;
    },
    done: all,
  };
}

/** Every line of every collection file is a JSON document (nedb's format), the last one included. */
function checkFiles(t: { same: (found: unknown, wanted: unknown, message: string) => unknown }, dir: string) {
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.db'))) {
    const lines = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
    const bad = lines.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    t.same(bad, [], `${f}: ${lines.length} lines, none torn`);
  }
}

t.test('SIGKILL of the api during catalog writes loses no acknowledged write', async (t) => {
  const dir = tempDir(t, 'store');
  const env = serviceEnv({ DATA_DIR: dir, WORKERS: '1', LOG_LEVEL: 'warn' });
  // The token, as an operator makes it: the CLI on the DATA_DIR before the service starts.
  const cli = await run(process.execPath, ['--import', 'tsx', 'api/catalog/cli/token.ts', '--email', 'curator@example.org', '--role', 'curator'], { cwd: ROOT, env });
  const token = cli.stdout.trim().split('\n').at(-1)!;
  t.match(token, /^\d+\|\w+$/, 'a token from the CLI');

  const acked: Acked[] = [];
  const answers: Answer[] = [];
  let api: Service = startApi(t, 'api', { ...env, LOG_LEVEL: 'info' });

  for (const round of [1, 2]) {
    await ready(api);
    const base = `http://127.0.0.1:${api.port}`;
    const before = acked.length;
    const w = writers(base, token, `round${round}`, acked, answers);
    // Kill once writes flow (at least 60 acknowledged this round, 10 of them molecules), at a
    // moment of the stream.
    const until = Date.now() + 30_000;
    const count = (r: Acked['resource']) => acked.slice(before).filter((a) => a.resource === r).length;
    while ((count('organisms') < 50 || count('molecules') < 10) && Date.now() < until) await sleep(20);
    await sleep(137);
    const pid = api.child.pid!;
    await api.kill('SIGKILL');
    const killedAt = Date.now();
    await w.done;
    const lateAcks = answers.filter((a) => a.status === 200 && a.start + a.ms > killedAt);
    t.same(lateAcks, [], 'no answer came after the kill');
    const lock = join(dir, 'catalog.lock');
    let lockLeft = false;
    try {
      lockLeft = readFileSync(lock, 'utf8').length >= 0;
    } catch {
      // no lock left
    }
    t.comment(`round ${round}: ${acked.length - before} writes acknowledged, then SIGKILL (pid ${pid}); lock file ${lockLeft ? 'left behind' : 'absent'}`);
    checkFiles(t, dir);

    // Restart on the same directory. Round 2: under the dead process's pid (exec from a shell
    // whose pid the killed api's lock file is made to name), as a container restart does.
    api = round === 1
      ? startApi(t, 'api', { ...env, LOG_LEVEL: 'info' })
      : startApi(t, 'api', { ...env, LOG_LEVEL: 'info' }, { shellPrefix: `printf '%s %s %s' $$ '${hostname()}' dead-process > '${lock}'` });
    await ready(api);
    const base2 = `http://127.0.0.1:${api.port}`;
    const probe = await request(`${base2}/api/organisms/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ search: { filters: [{ field: 'name', operator: 'like', value: `round${round}-%` }], limit: 10 } }),
      timeoutMs: 15_000,
    });
    t.equal(probe.status, 200, `round ${round}: the restarted api answers catalog searches (${probe.ms} ms${probe.error ? `, ${probe.error}` : ''})`);
    t.ok(((probe.body as { total?: number })?.total ?? 0) > 0, 'and finds this round\'s writes');

    // Every acknowledged write, read through the store (a second process on the same directory).
    const store = await EmbeddedStore.open(dir);
    try {
      for (const resource of ['organisms', 'molecules'] as const) {
        const mine = acked.filter((a) => a.resource === resource);
        const docs = await store.findByIds(resource, mine.map((a) => a.id));
        const byId = new Map(docs.map((d) => [d.id, d.name]));
        const missing = mine.filter((a) => byId.get(a.id) !== a.name);
        t.same(missing, [], `${resource}: all ${mine.length} acknowledged creates present`);
      }
      const molecules = await store.findByIds('molecules', acked.filter((a) => a.resource === 'molecules').map((a) => a.id));
      t.ok(molecules.every((m) => typeof m.standard_inchi_key === 'string'), 'acknowledged molecules have their derived chemistry');
    } finally {
      await store.close();
    }
  }
  // A last write on the twice-restarted api, and its clean shutdown.
  const last = await request(`http://127.0.0.1:${api.port}/api/organisms/mutate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mutate: [{ operation: 'create', attributes: { name: 'after-restarts' } }] }),
    timeoutMs: 15_000,
  });
  t.equal(last.status, 200, 'writes work after the restarts');
});
