/**
 * `npm run fuzz`: the fuzzer against a real server started in this process (inline mode; FUZZ_MODE=bullmq
 * for the distributed one). Environment: FUZZ_SEED (default 1), FUZZ_CASES (default 20000),
 * FUZZ_CONCURRENCY (default 24), FUZZ_ONLY=3,17 (replay those cases), FUZZ_VERBOSE=1,
 * FUZZ_REPORT=<file> (the report as JSON), FUZZ_WARMUP (cases run before the measured ones, default
 * 2000; the RSS after them is the starting figure), FUZZ_MEMORY=1 (memory at every progress line).
 * Exits 1 when anything was found.
 */
import { writeFileSync } from 'node:fs';
import { formatReport, runFuzz } from './fuzz.ts';

const env = process.env;
const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
const mode = env.FUZZ_MODE === 'bullmq' ? 'bullmq' : 'inline';
if (env.FUZZ_MODE && env.FUZZ_MODE !== mode) {
  console.error(`FUZZ_MODE must be inline or bullmq (got ${env.FUZZ_MODE})`);
  process.exit(2);
}

const report = await runFuzz({
  seed: int(env.FUZZ_SEED, 1),
  cases: int(env.FUZZ_CASES, 20_000),
  concurrency: Math.max(1, int(env.FUZZ_CONCURRENCY, 24)),
  mode,
  only: env.FUZZ_ONLY ? env.FUZZ_ONLY.split(',').map(Number).filter(Number.isInteger) : undefined,
  verbose: !!env.FUZZ_VERBOSE,
  warmup: int(env.FUZZ_WARMUP, 2000),
  memory: !!env.FUZZ_MEMORY,
});
console.log(formatReport(report));
if (env.FUZZ_REPORT) writeFileSync(env.FUZZ_REPORT, JSON.stringify(report, null, 2));
process.exit(report.findings.length || report.generatorErrors.length ? 1 : 0);
