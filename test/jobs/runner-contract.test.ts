/**
 * One contract for the job-runner port, run against both implementations: inline (Piscina in the
 * api process) and bullmq (real Redis, consumers feeding their own pool). Clients must not be
 * able to tell them apart.
 */
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import { resultOf } from '../../shared/jobs/outcome.ts';
import type { JobRecord, JobRunner } from '../../shared/jobs/types.ts';
import { build, MODES } from '../helpers/app.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const CANON = ['generate_canonical_smiles', 'generate_canonical_smiles'] as const;
/** Millions of structures with every restriction off: runs until cancelled or timed out. */
const ENDLESS = { molecular_formula: 'C10H16O2', limit: 10, max_heavy_atoms: 12, planar: false, allow_triple_bonds: true, bad_substructures: 'none', allow_3_rings: true, allow_4_cycles: true };

async function until(runner: JobRunner, id: string, pred: (r: JobRecord) => boolean, ms = 20_000): Promise<JobRecord> {
  const end = Date.now() + ms;
  for (;;) {
    const rec = await runner.get(id);
    if (rec && pred(rec)) return rec;
    if (Date.now() > end) throw new Error(`job ${id} never reached the expected state (last: ${JSON.stringify(rec)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return AppError.from(e) ?? new AppError(0, String(e));
  }
  throw new Error('expected a rejection');
}

for (const mode of MODES) {
  t.test(`${mode} runner`, async (t) => {
    const built = await build(t, mode, { JOB_RESULT_TTL: '2' });
    if (!built) return skipAll(t, NO_REDIS);
    const runner = built.services.runner;
    t.equal(runner.kind, mode);

    t.test('a quick job runs and its record is complete', async (t) => {
      const rec = await runner.submit(...CANON, { smiles: 'OC(=O)c1ccccc1O', toolkit: 'rdkit' });
      t.match(rec, { op: 'generate_canonical_smiles', status: /queued|running|succeeded/, progress: 0 });
      t.match(rec.created_at, /^\d{4}-\d\d-\d\dT/);
      const done = await runner.wait(rec.id, 20_000);
      t.match(done, { id: rec.id, status: 'succeeded', result: 'O=C(O)C1=CC=CC=C1O', attempts: 1 });
      t.ok(done.started_at && done.finished_at && done.finished_at >= done.started_at!, 'started and finished times');
      t.same(await runner.get(rec.id), done, 'get answers the same record');
    });

    t.test('run() answers the value; bad input fails once with its 4xx', async (t) => {
      t.equal(await runner.run(...CANON, { smiles: 'CCO', toolkit: 'rdkit' }), 'CCO');
      const e = await rejection(runner.run(...CANON, { smiles: 'C1CC(', toolkit: 'rdkit' }));
      t.equal(e.status, 422);
      t.match(e.detail, /C1CC\(/);
      const rec = await runner.submit(...CANON, { smiles: 'C1CC(', toolkit: 'rdkit' });
      const failed = await runner.wait(rec.id, 20_000);
      t.match(failed, { status: 'failed', error: { status: 422 }, attempts: 1 }, 'not retried');
    });

    t.test('progress, cancellation of a running job', async (t) => {
      const rec = await runner.submit('generate_structures', 'generate_structures', ENDLESS, { mode: 'long' });
      const running = await until(runner, rec.id, (r) => r.status === 'running' && typeof r.progress === 'object');
      t.match(running.progress, { generated: Number }, 'progress reported while running');
      const cancelled = await runner.cancel(rec.id);
      t.equal(cancelled?.status, 'cancelled');
      const after = await until(runner, rec.id, (r) => r.status === 'cancelled');
      t.ok(after.finished_at, 'finished_at set');
      const e = await rejection(runner.wait(rec.id, 100).then((r) => resultOf(r, 100)));
      t.equal(e.status, 409, 'a cancelled job has no result');
      t.equal(await runner.run(...CANON, { smiles: 'CCN', toolkit: 'rdkit' }), 'CCN', 'the pool works after a cancellation');
    });

    t.test('cancelling a queued job', async (t) => {
      // One thread: the first endless job occupies it, the second waits in the queue.
      const first = await runner.submit('generate_structures', 'generate_structures', ENDLESS, { mode: 'long' });
      await until(runner, first.id, (r) => r.status === 'running');
      const second = await runner.submit('generate_structures', 'generate_structures', ENDLESS, { mode: 'long' });
      t.equal((await runner.get(second.id))?.status, 'queued');
      t.equal((await runner.cancel(second.id))?.status, 'cancelled');
      t.equal((await runner.get(second.id))?.status, 'cancelled', 'stays cancelled');
      await runner.cancel(first.id);
      await until(runner, first.id, (r) => r.status === 'cancelled');
    });

    t.test('a task that exceeds its time limit fails with 504 and is not retried', async (t) => {
      const rec = await runner.submit('generate_structures', 'generate_structures', ENDLESS, { mode: 'long', timeoutMs: 1500 });
      const done = await until(runner, rec.id, (r) => r.status === 'failed', 30_000);
      t.match(done.error, { status: 504, code: 'timeout' });
      t.equal(done.attempts, 1);
    });

    t.test('run() that outlasts its wait answers 504 naming the job', async (t) => {
      const e = await rejection(runner.run('generate_structures', 'generate_structures', ENDLESS, { mode: 'long', waitMs: 500 }));
      t.equal(e.status, 504);
      const id = /Job (\S+)/.exec(String(e.detail))?.[1];
      t.ok(id && (await runner.get(id)), `detail names the job: ${e.detail}`);
      await runner.cancel(id!);
    });

    t.test('a quick call that outlives its wait becomes a job: polled, then cancelled', async (t) => {
      const e = await rejection(runner.run('generate_structures', 'generate_structures', ENDLESS, { waitMs: 300 }));
      t.equal(e.status, 504);
      const id = /Job (\S+)/.exec(String(e.detail))?.[1];
      t.ok(id, `the 504 names the job: ${e.detail}`);
      const rec = await until(runner, id!, (r) => r.status === 'running');
      t.equal(rec.op, 'generate_structures');
      t.equal((await runner.cancel(id!))?.status, 'cancelled');
      await until(runner, id!, (r) => r.status === 'cancelled');
      t.equal(await runner.run(...CANON, { smiles: 'SCC', toolkit: 'rdkit' }), 'CCS', 'the pool works after the cancellation');
    });

    t.test('a quick call that outlives its wait: its record ends as its task ends', async (t) => {
      const e = await rejection(runner.run('generate_structures', 'generate_structures', ENDLESS, { waitMs: 300, timeoutMs: 1500 }));
      const id = /Job (\S+)/.exec(String(e.detail))?.[1];
      const done = await until(runner, id!, (r) => r.status === 'failed', 30_000);
      t.match(done.error, { status: 504, code: 'timeout' }, 'the task hit its own time limit later');
    });

    t.test('concurrent quick calls: each its own answer, bad input only its own 422', async (t) => {
      const inputs = Array.from({ length: 60 }, (_, i) => (i % 6 === 5 ? `C1CC(${'C'.repeat(i)}` : `${'C'.repeat(1 + (i % 9))}O`));
      const answers = await Promise.all(inputs.map((smiles) => runner.run(...CANON, { smiles, toolkit: 'rdkit' }).then((v) => v, (x) => AppError.from(x))));
      inputs.forEach((smiles, i) => {
        if (i % 6 === 5) t.match(answers[i], { status: 422, detail: new RegExp(smiles.replace(/[()]/g, '\\$&')) });
        else t.equal(answers[i], smiles === 'CO' ? 'CO' : `${'C'.repeat(smiles.length - 1)}O`);
      });
    });

    t.test('an idempotency key reuses a live or finished job, not a failed one', async (t) => {
      const key = `contract-${mode}-${Date.now()}`;
      const a = await runner.submit(...CANON, { smiles: 'CCCO', toolkit: 'rdkit' }, { jobId: key });
      await runner.wait(a.id, 20_000);
      const b = await runner.submit(...CANON, { smiles: 'CCCO', toolkit: 'rdkit' }, { jobId: key });
      t.equal(b.id, key);
      t.equal(b.status, 'succeeded', 'the finished job is returned');
      const badKey = `${key}-bad`;
      await runner.wait((await runner.submit(...CANON, { smiles: 'C1CC(', toolkit: 'rdkit' }, { jobId: badKey })).id, 20_000);
      const again = await runner.submit(...CANON, { smiles: 'CCCC', toolkit: 'rdkit' }, { jobId: badKey });
      t.equal((await runner.wait(again.id, 20_000)).result, 'CCCC', 'a failed job is replaced');
    });

    t.test('unknown jobs', async (t) => {
      t.equal(await runner.get('no-such-job'), undefined);
      t.equal(await runner.cancel('no-such-job'), undefined);
      t.equal((await rejection(runner.wait('no-such-job', 100))).status, 404);
    });

    t.test('results expire after the TTL', async (t) => {
      const rec = await runner.submit(...CANON, { smiles: 'CCOC', toolkit: 'rdkit' });
      await runner.wait(rec.id, 20_000);
      await new Promise((r) => setTimeout(r, 2600));
      // Served as expired at once (BullMQ itself removes aged jobs when another job completes).
      await runner.run(...CANON, { smiles: 'CCOCC', toolkit: 'rdkit' });
      t.equal(await runner.get(rec.id), undefined);
    });

    t.test('queue depth is reported per queue', async (t) => {
      const depth = await runner.depth();
      t.ok(depth.length >= 1 && depth.every((d) => typeof d.queue === 'string' && d.waiting >= 0 && d.active >= 0));
    });
  });
}
