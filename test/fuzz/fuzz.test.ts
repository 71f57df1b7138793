/**
 * A reduced fuzz run in CI (issue 15.1): 1,500 cases with a fixed seed against a real server on a
 * socket (inline mode), the same harness as `npm run fuzz`. Nothing may answer 5xx (but a 503 of
 * an unreachable external service), drop a connection, go unanswered, crash a thread or the
 * process, or change the catalog by a write that was refused. Nothing is asserted about time:
 * a 504 (a time limit reached under load) is listed in the report, not failed on.
 */
import t from 'tap';
import { formatReport, runFuzz } from './fuzz.ts';

const seed = Number(process.env.FUZZ_SEED ?? 15);
const cases = Number(process.env.FUZZ_CASES ?? 1500);

t.test(`fuzz: ${cases} cases, seed ${seed}`, async (t) => {
  const report = await runFuzz({ seed, cases, concurrency: 16, mode: 'inline', log: () => {} });
  t.comment(formatReport(report));
  t.equal(report.cases, cases, 'every case was run');
  t.same(report.generatorErrors, [], 'the generators built every case');
  t.equal(report.counts.fiveXX, 0, 'no 5xx (a 503 of an external service apart)');
  t.equal(report.counts.dropped, 0, 'no dropped connection');
  t.equal(report.counts.noAnswer, 0, 'every request answered');
  t.equal(report.counts.crashes, 0, 'no thread or process crash');
  t.equal(report.counts.writesAccepted, 0, 'every hostile write refused');
  t.equal(report.counts.changedRecords, 0, 'the catalog unchanged');
  t.equal(report.store.before, report.store.after, 'the same catalog hash before and after');
  t.equal(report.health, 200, '/health answers at the end');
  t.same(report.findings, [], 'no findings');
  const targets = Object.keys(report.perTarget);
  for (const target of ['chem:rest', 'mcp:tools/call', 'catalog:search', 'catalog:write', 'http:raw', 'pdf:upload']) t.ok(targets.includes(target), `cases of ${target}`);
});
