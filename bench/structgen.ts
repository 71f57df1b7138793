/**
 * Structure-generator throughput: structures per second and memory for a few formulas, with
 * the restrictions off (counts compared with independent references) and with the surge
 * defaults of the original service. Also checks the larger alkanes against OEIS A000602, which
 * the test suite leaves out for time. Prints figures; asserts nothing about time.
 *
 *   node --import tsx bench/structgen.ts [formula ...]
 */
import { generateMolecules, NO_RESTRICTIONS, parseFormula, SURGE_DEFAULTS, type StructgenOptions } from '../shared/chem/structgen/structgen.ts';

// Independent references: OEIS A000602 for alkanes; for C7H7NO the nauty geng|vcolg|multig
// pipeline of test/fixtures/tools/structgen_reference.sh (`count C7H7NO 0` and `count C7H7NO 1`,
// about two minutes, so not in the fixture run).
const REFERENCE: Record<string, number> = {
  C8H18: 18, C10H22: 75, C11H24: 159, C12H26: 355, C13H28: 802, C14H30: 1858, C7H7NO: 528227,
};
const REFERENCE_RESTRICTED_NO_B: Record<string, number> = { C7H7NO: 21561 };
const RESTRICTED_NO_B: StructgenOptions = { ...SURGE_DEFAULTS, badSubstructures: [] };

function run(formula: string, options: StructgenOptions) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  let count = 0;
  const t0 = process.hrtime.bigint();
  for (const m of generateMolecules(parseFormula(formula), options)) {
    if (m === null) { peak = Math.max(peak, process.memoryUsage().rss); continue; }
    count++;
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  peak = Math.max(peak, process.memoryUsage().rss);
  return { count, seconds, rateK: count / seconds / 1000, rssMB: peak / 2 ** 20 };
}

const formulas = process.argv.slice(2).length ? process.argv.slice(2) : ['C8H18', 'C10H22', 'C7H7NO', 'C12H26', 'C14H30'];
console.log('formula\tsettings\tstructures\treference\tseconds\tk structures/s\tpeak RSS MB');
for (const f of formulas) {
  const settings = [['none', NO_RESTRICTIONS, REFERENCE], ['-P -T -t0 -f0', RESTRICTED_NO_B, REFERENCE_RESTRICTED_NO_B],
    ['surge defaults', SURGE_DEFAULTS, {}]] as const;
  for (const [name, o, refs] of settings) {
    if (name !== 'none' && /^C\d+H\d+$/.test(f)) continue; // alkanes: identical under every setting
    const r = run(f, o);
    const ref = (refs as Record<string, number>)[f];
    const verdict = ref === undefined ? '-' : ref === r.count ? `${ref} ok` : `${ref} MISMATCH`;
    console.log(`${f}\t${name}\t${r.count}\t${verdict}\t${r.seconds.toFixed(2)}\t${r.rateK.toFixed(1)}\t${r.rssMB.toFixed(0)}`);
  }
}
