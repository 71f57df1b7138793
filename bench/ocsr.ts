/**
 * How well osra reads structures back from depictions (docs/ocsr.md): the 200 LOTUS structures of
 * bench/data/ocsr_lotus_200.tsv (bench/ocsr/make-data.py) drawn by native RDKit
 * (bench/ocsr/depict-rdkit.py) and by CDK (bench/ocsr/CdkDepictPng.java, Debian's jars) at two
 * sizes, each read by natprod's osra driver (shared/ocsr/osra.ts, the operations' own code path),
 * and the answer's InChIKey compared with the source's (both by RDKit MinimalLib). Prints the
 * share read back to the same full InChIKey, to the same skeleton (first block), the pictures
 * with no structure or several, and the wall time per picture.
 *
 *   node --import tsx bench/ocsr.ts                # both toolkits, 300 and 600 px, 2 osra at a time
 *   OCSR_BENCH_N=50 OCSR_BENCH_JOBS=1 node --import tsx bench/ocsr.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { compileJavaBridge } from '../shared/java-bridge.ts';
import { locateOsra, osraVersion, readPicture } from '../shared/ocsr/osra.ts';
import { locateCdk } from '../shared/toolkits/setup.ts';

const here = new URL('.', import.meta.url).pathname;
const TSV = join(here, 'data/ocsr_lotus_200.tsv');
const SIZES = (process.env.OCSR_BENCH_SIZES ?? '300,600').split(',').map(Number);
const N = Number(process.env.OCSR_BENCH_N ?? 200);
const JOBS = Number(process.env.OCSR_BENCH_JOBS ?? 2);
const limits = { timeoutMs: Number(process.env.OCSR_TIMEOUT_MS ?? 20_000), memoryMb: 1024 };

const rows = readFileSync(TSV, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')).slice(0, N);
const rdkit = await loadRDKit();
const keyOf = (smiles: string): string | null => {
  const mol = rdkit.get_mol(smiles);
  try {
    return mol ? rdkit.get_inchikey_for_inchi(mol.get_inchi()) || null : null;
  } finally {
    mol?.delete();
  }
};
const sourceKeys = rows.map((r) => keyOf(r[2]));

const out = mkdtempSync(join(tmpdir(), 'natprod-ocsr-bench-'));
try {
  const osra = locateOsra(undefined);
  console.log(`osra ${await osraVersion(osra)}; ${rows.length} LOTUS structures; sizes ${SIZES.join(', ')} px; ${JOBS} osra at a time; ${out}`);
  const t0 = Date.now();
  execFileSync('/usr/bin/python3', [join(here, 'ocsr/depict-rdkit.py'), TSV, out, ...SIZES.map(String)], { stdio: 'inherit' });
  const cdk = locateCdk();
  if (cdk.ok) {
    const classes = await compileJavaBridge(
      { label: 'CDK depiction', prefix: 'cdk-depict', mainClass: 'CdkDepictPng', sources: [join(here, 'ocsr/CdkDepictPng.java')], classPath: cdk.jars! },
      cdk.java!,
    );
    execFileSync(cdk.java!, ['-Djava.awt.headless=true', '-cp', [classes, ...cdk.jars!].join(delimiter), 'CdkDepictPng', TSV, out, ...SIZES.map(String)], { stdio: 'inherit' });
  } else {
    console.log(`CDK skipped: ${cdk.problem}`);
  }
  console.log(`depictions drawn in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const sets = ['rdkit', 'cdk'].flatMap((tk) => SIZES.map((size) => `${tk}-${size}`)).filter((s) => existsSync(join(out, s)));
  console.log('\n| depiction | pictures | same InChIKey | same skeleton (first block) | nothing read | several structures | errors | s per picture (mean / median / max) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const set of sets) {
    const r = { n: 0, full: 0, skeleton: 0, none: 0, several: 0, errors: 0, times: [] as number[] };
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const i = next++;
        const file = join(out, set, `${i}.png`);
        if (!existsSync(file)) continue;
        r.n++;
        const t = performance.now();
        let smiles: string[] = [];
        try {
          smiles = await readPicture(readFileSync(file), 'png', limits);
        } catch {
          r.errors++;
        }
        r.times.push((performance.now() - t) / 1000);
        if (smiles.length === 0) r.none++;
        if (smiles.length > 1) r.several++;
        // A figure read as several pieces counts as right when their union (one dotted SMILES) is the molecule.
        const key = smiles.length ? keyOf(smiles.join('.')) : null;
        if (key && key === sourceKeys[i]) r.full++;
        if (key && sourceKeys[i] && key.slice(0, 14) === sourceKeys[i]!.slice(0, 14)) r.skeleton++;
      }
    };
    await Promise.all(Array.from({ length: JOBS }, worker));
    const sorted = [...r.times].sort((a, b) => a - b);
    const pct = (k: number) => `${k} (${((100 * k) / r.n).toFixed(1)} %)`;
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    console.log(
      `| ${set} px | ${r.n} | ${pct(r.full)} | ${pct(r.skeleton)} | ${pct(r.none)} | ${pct(r.several)} | ${r.errors} | ${mean.toFixed(2)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} / ${sorted.at(-1)!.toFixed(2)} |`,
    );
  }
  console.log(`\nwall time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
