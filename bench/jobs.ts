/**
 * The long-running operations of issue 6 in one run: structure generation (structures/s per
 * formula, counts against OEIS and nauty), PDF extraction (pages/s, ours vs pdftotext) and the
 * classifier (molecules/s and agreement with LOTUS's NPClassifier and ClassyFire labels).
 * Each part is its own script, run here one after the other; figures only, no assertions.
 *
 *   node --import tsx bench/jobs.ts
 */
import { spawnSync } from 'node:child_process';

const parts: [string, string[]][] = [
  ['structure generation', ['bench/structgen.ts', 'C8H18', 'C10H22', 'C6H6', 'C7H8', 'C6H6O', 'C7H7NO']],
  ['PDF extraction', ['bench/pdf.ts']],
  ['classification', ['bench/classify.ts']],
];

for (const [title, args] of parts) {
  console.log(`\n=== ${title}: node --import tsx ${args.join(' ')}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', ...args], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`(${title} exited with ${r.status})`);
}
