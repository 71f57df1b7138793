/**
 * `npm run catalog:import -- <file> [<file> ...]`: loads TSV/CSV/SDF files (optionally .gz) into
 * the catalog store chosen by the environment (MONGO_URL, else the embedded store in DATA_DIR).
 * Structures are derived in this process with RDKit WASM (no worker service needed). A progress
 * bar goes to stderr; the summary of each file is printed to stdout as JSON at the end.
 * Exit status: 0 when every file loaded (rejected rows included), 1 on a fatal error.
 */
import { basename } from 'node:path';
import { loadConfig } from '../../../shared/config.ts';
import { deriveMolecule } from '../../../shared/chem/catalog/derive.ts';
import { configureRDKit, loadRDKit, rdkitFault } from '../../../shared/chem/core/rdkit.ts';
import { openStore } from '../store/open.ts';
import { importFile, type ImportProgress } from './run.ts';

function progressBar(label: string): (p: ImportProgress) => void {
  const tty = process.stderr.isTTY;
  let last = -1;
  return (p) => {
    const frac = p.totalBytes ? Math.min(1, p.bytes / p.totalBytes) : 0;
    const pct = Math.floor(frac * 100);
    // Off a terminal, print a line each time another 10 % is passed instead of redrawing.
    if (!tty && Math.floor(pct / 10) <= last) return;
    if (tty && pct === last && p.row % 50 !== 0) return;
    last = tty ? pct : Math.floor(pct / 10);
    const width = 30;
    const filled = Math.round(frac * width);
    const bar = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${p.row} rows`;
    process.stderr.write(tty ? `\r${bar}` : `${bar}\n`);
  };
}

async function main(argv: string[]): Promise<number> {
  const files = argv.filter((a) => !a.startsWith('-'));
  if (!files.length || argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write('usage: npm run catalog:import -- <file.tsv|.csv|.sdf[.gz]> [...]\n');
    return files.length ? 0 : 1;
  }
  const cfg = loadConfig();
  configureRDKit({ maxHeavyAtoms: cfg.MAX_HEAVY_ATOMS });
  const rdkit = await loadRDKit();
  const store = await openStore({ mongoUrl: cfg.MONGO_URL, dataDir: cfg.DATA_DIR });
  try {
    for (const file of files) {
      const summary = await importFile(store, file, {
        derive: (input) => {
          try {
            return deriveMolecule(rdkit, input);
          } finally {
            // After a WASM fault this process's RDKit cannot be trusted: stop (rows written so
            // far stay) rather than derive the rest with it.
            const fault = rdkitFault();
            if (fault) throw new Error(`RDKit faulted (${fault.message}) on the structure ${JSON.stringify(input.structure).slice(0, 200)}`);
          }
        },
        onProgress: progressBar(basename(file)),
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      process.stdout.write(JSON.stringify({ file, ...summary }, null, 2) + '\n');
    }
  } finally {
    await store.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`\nimport failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
