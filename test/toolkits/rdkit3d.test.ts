/**
 * toolkit=rdkit on the 3D operations: native RDKit (Debian's python3-rdkit) in its sidecar,
 * through the REST routes (inline runner), judged by native RDKit run directly
 * (test/toolkits/rdkit3d_check.py; never natprod's own output) on 20 LOTUS structures: the
 * molblock reads back, is the input molecule with its stereo (canonical isomeric SMILES with
 * stereo perceived from the 3D coordinates; Debian's RDKit has no InChI), is 3D with physical
 * bond lengths, and is MMFF-minimised. Also: a bad SMILES, the 3D viewer, /health, the sidecar
 * killed under load and a call past its time limit, and the 422 naming python3-rdkit when it is
 * missing. Skipped with the reason when python3-rdkit is not installed.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from '../helpers/app.ts';
import { readTsv } from '../helpers/lotus.ts';
import { Toolkits } from '../../shared/toolkits/index.ts';
import { loadConfig } from '../../shared/config.ts';
import { noRdkit } from './fixtures.ts';

const CHECK = fileURLToPath(new URL('./rdkit3d_check.py', import.meta.url));
const { app, services } = (await build(t, 'inline'))!;
const get = (url: string, smiles: string) => app.inject({ url, query: { smiles, toolkit: 'rdkit' } });

/** Heavy atoms of a SMILES, counted from its atom tokens. */
const heavy = (s: string) => (s.match(/Cl|Br|\[[^\]]+\]|[BCNOSPFI]|[bcnops]/g) ?? []).filter((a) => !/^\[2?H[+-]?\]$/.test(a)).length;
/** Every 7th LOTUS structure of at most 40 heavy atoms (embedding and MMFF stay well under TOOLKIT_TIMEOUT_MS). */
const LOTUS = readTsv('lotus_sample_1000.tsv.gz')
  .map((r) => r.structure_smiles)
  .filter((s, i) => i % 7 === 0 && s && heavy(s) <= 40)
  .slice(0, 20);

/** A molblock's connection table: elements, bonds and orders (coordinates and so wedges are random, as upstream). */
function table(molblock: string): string {
  const lines = molblock.split('\n');
  const [atoms, bonds] = [Number(lines[3].slice(0, 3)), Number(lines[3].slice(3, 6))];
  return [...lines.slice(4, 4 + atoms).map((l) => l.slice(31, 34)), ...lines.slice(4 + atoms, 4 + atoms + bonds).map((l) => l.slice(0, 9))].join('\n');
}

interface Verdict {
  smiles: string; parsed: boolean; same?: boolean; stereo?: number; dim3d?: boolean; zspread?: number;
  bonds?: [number, number]; bad_bonds?: string[]; relax?: number | null; relax_ref?: number | null;
}

t.test('mol3D with toolkit=rdkit: what native RDKit judges a right, physical, MMFF-minimised 3D structure', { skip: noRdkit }, async (t) => {
  t.equal(LOTUS.length, 20, '20 LOTUS structures');
  const answers = await Promise.all(LOTUS.map((s) => get('/latest/convert/mol3D', s)));
  for (const [i, a] of answers.entries()) t.equal(a.statusCode, 200, `${LOTUS[i]}: 200`);
  const input = JSON.stringify(LOTUS.map((smiles, i) => ({ smiles, molblock: answers[i].body })));
  const verdicts = JSON.parse(execFileSync('/usr/bin/python3', [CHECK], { input, encoding: 'utf8', timeout: 120_000 })) as Verdict[];
  let stereo = 0;
  let [relax, ref] = [0, 0];
  for (const v of verdicts) {
    t.ok(v.parsed, `${v.smiles}: the molblock reads back`);
    t.ok(v.same, `${v.smiles}: the same molecule, its ${v.stereo} stereo elements kept`);
    t.ok(v.dim3d && v.zspread! > 0.5, `${v.smiles}: 3D (z spread ${v.zspread?.toFixed(2)} Å)`);
    t.same(v.bad_bonds, [], `${v.smiles}: bond lengths ${v.bonds?.map((x) => x.toFixed(3)).join('–')} Å`);
    // MMFF-minimised: relaxing the answer (Hs put back and relaxed first, heavy atoms fixed) gains
    // little next to relaxing an unoptimised embedding of the same molecule. Not 0: upstream's
    // MMFFOptimizeMolecule stops at 200 iterations, and the Hs put back may find other rotamers.
    t.ok(v.relax != null && v.relax_ref != null, `${v.smiles}: MMFF94 has parameters`);
    t.ok(v.relax! <= Math.max(0.5, 0.35 * v.relax_ref!), `${v.smiles}: relaxes by ${v.relax?.toFixed(2)} kcal/mol (an unoptimised embedding: ${v.relax_ref?.toFixed(1)})`);
    stereo += v.stereo ?? 0;
    relax += v.relax ?? 0;
    ref += v.relax_ref ?? 0;
  }
  t.ok(stereo >= 20, `${stereo} stereo elements checked`);
  t.ok(relax < 0.1 * ref, `in all, the answers relax by ${relax.toFixed(1)} kcal/mol, unoptimised embeddings by ${ref.toFixed(1)}`);
  t.notMatch(answers[0].body, / H {3}0 /, 'without hydrogens');
});

t.test('toolkit=rdkit: a bad SMILES, the 3D viewer, /health', { skip: noRdkit }, async (t) => {
  const bad = await get('/latest/convert/mol3D', 'C1CC(');
  t.equal(bad.statusCode, 422, 'an unreadable SMILES is a 422');
  t.match(bad.json().detail, /RDKit could not read/);
  const viewer = await get('/latest/depict/3D', 'CCO');
  t.equal(viewer.statusCode, 200);
  t.match(viewer.headers['content-type'], /^text\/html/);
  t.match(viewer.body, /RDKit {10}3D/, 'the viewer shows native RDKit\'s molblock');
  t.equal((viewer.body.match(/\d H {3}0 /g) ?? []).length, 6, 'with its 6 hydrogens, as the original');
  const health = services.health() as unknown as { toolkits: Record<string, unknown> };
  t.match(health.toolkits.rdkit, { available: true, state: 'running', version: /^RDKit 20\d\d\.\d\d\.\d+$/ });
  const other = await app.inject({ url: '/latest/convert/canonicalsmiles', query: { smiles: 'CCO', toolkit: 'rdkit' } });
  t.equal(other.statusCode, 200, 'other operations with toolkit=rdkit stay on the threads');
  t.match(services.toolkits.sidecar('rdkit').stats, { answered: 22 });
});

t.test('native RDKit killed under load: at most one 503, every other call answered, then served again', { skip: noRdkit }, async (t) => {
  const some = LOTUS.slice(0, 4);
  const expected = new Map<string, string>();
  for (const s of some) expected.set(s, table((await get('/convert/mol3D', s)).body));
  const sidecar = services.toolkits.sidecar('rdkit');
  const pid = sidecar.pid!;
  let killed = false;
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => some[i % some.length]).map(async (s, i) => {
      const res = await get('/convert/mol3D', s);
      if (i >= 3 && !killed) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
      return { s, res };
    }),
  );
  const failed = answers.filter((a) => a.res.statusCode !== 200);
  t.ok(killed && failed.length <= 1, `killed while calls were in flight; ${failed.length} failed`);
  for (const f of failed) t.match(f.res, { statusCode: 503, body: /native RDKit \(toolkit=rdkit\) is unavailable/ });
  t.equal(answers.filter((a) => a.res.statusCode === 200 && table(a.res.body) !== expected.get(a.s)).length, 0, 'every other call has its own answer');
  t.not(sidecar.pid, pid, 'a fresh sidecar');
  t.equal((await get('/convert/mol3D', some[0])).statusCode, 200, 'served again');
});

t.test('native RDKit: a call past TOOLKIT_TIMEOUT_MS is a 504 naming it, then served again', { skip: noRdkit }, async (t) => {
  const kits = new Toolkits(loadConfig({ TOOLKIT_TIMEOUT_MS: '1500' }));
  t.teardown(() => kits.close());
  t.equal(await kits.call('rdkit', { op: 'ping' }), 'pong');
  const e = (await kits.call('rdkit', { op: 'sleep', ms: 20_000 }).catch((x: unknown) => x)) as { status: number; detail: string };
  t.match(e, { status: 504, detail: /^native RDKit \(toolkit=rdkit\)/ });
  t.equal(await kits.call('rdkit', { op: 'ping' }), 'pong', 'served again');
});

t.test('without python3-rdkit: a 422 naming the package, /health says so', async (t) => {
  const kits = new Toolkits(loadConfig({ RDKIT_PYTHON: '/nonexistent/python3' }), { PATH: process.env.PATH });
  t.teardown(() => kits.close());
  const e = (await kits.call('rdkit', { op: 'mol3d', smiles: 'CCO' }).catch((x: unknown) => x)) as { status: number; detail: string };
  t.match(e, { status: 422, detail: /toolkit=rdkit is not available here: .*apt-get install python3-rdkit/ });
  t.match(kits.health().rdkit, { available: false, state: 'not installed', install: /python3-rdkit/ });
  const off = new Toolkits(loadConfig({ RDKIT_PYTHON: 'off' }), {});
  t.match(off.health().rdkit, { available: false, state: 'disabled' });
});
