/**
 * How much of a large reference set a test checks. The suite (and CI, which must finish within
 * 15 minutes on 2 cores) checks a fixed leading sample of the slowest reference comparisons;
 * `TEST_FULL=1 npm test` checks every row. The sample is always the same rows (the first n), so a
 * failure reproduces.
 */
const FULL = process.env.TEST_FULL === '1';

export function leading<T>(rows: readonly T[], n: number): T[] {
  return FULL ? [...rows] : rows.slice(0, n);
}
