/**
 * `npm run dump -- [--3d | --no-3d] [--force] [--date=YYYY-MM-DD] [--dir=PATH]`: writes a dated
 * full dump of the catalog chosen by the environment (MONGO_URL, else the embedded store in
 * DATA_DIR) into DUMP_DIR (default DATA_DIR/dumps)/<date>/ — SDF 2D, optionally SDF 3D
 * (default DUMP_3D), CSV lite, CSV full and manifest.json — using this process's own pool of
 * chemistry threads (WORKERS). Progress goes to stderr, the manifest to stdout.
 * Exit status: 0 when the dump is complete, 1 on failure (nothing is left under a final name),
 * 2 on a bad argument.
 * It may run beside the api: the embedded store serialises processes with its lock file.
 */
import { loadConfig } from '../../../shared/config.ts';
import { createServices } from '../../services.ts';
import { runnerMolblocks, runnerMolblocks3D } from '../export/routes.ts';
import { DATE, today, writeDump } from './dump.ts';
import { dumpDir } from './routes.ts';

const USAGE = 'usage: npm run dump -- [--3d | --no-3d] [--force] [--date=YYYY-MM-DD] [--dir=PATH]\n';

export interface DumpArgs {
  with3d?: boolean;
  force: boolean;
  date?: string;
  dir?: string;
}

/** The command line, or an error message naming the bad argument. */
export function parseDumpArgs(argv: string[]): DumpArgs | string {
  const out: DumpArgs = { force: false };
  for (const a of argv) {
    if (a === '--3d') out.with3d = true;
    else if (a === '--no-3d') out.with3d = false;
    else if (a === '--force') out.force = true;
    else if (a.startsWith('--date=')) {
      out.date = a.slice('--date='.length);
      if (!DATE.test(out.date)) return `invalid --date ${JSON.stringify(out.date)}: use YYYY-MM-DD`;
    } else if (a.startsWith('--dir=') && a.length > '--dir='.length) out.dir = a.slice('--dir='.length);
    else return `unknown argument ${JSON.stringify(a)}`;
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parseDumpArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig({ ...process.env, SEED_DEMO: 'false' });
  const services = await createServices(config);
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const started = Date.now();
    let lastPct = -1;
    const manifest = await writeDump({
      store: services.store,
      molblocks: runnerMolblocks(services.runner),
      molblocks3d: runnerMolblocks3D(services.runner),
      dir: args.dir ?? dumpDir(config),
      date: args.date ?? today(),
      version: config.RELEASE_VERSION,
      with3d: args.with3d ?? config.DUMP_3D,
      force: args.force,
      signal: abort.signal,
      onProgress: (rows, total) => {
        const pct = total ? Math.floor((rows / total) * 100) : 100;
        if (pct === lastPct) return;
        lastPct = pct;
        process.stderr.write(`dump: ${rows}/${total} molecules (${pct} %), ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      },
    });
    process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
    return 0;
  } finally {
    await services.close(0);
  }
}

// Run only as the entry (the tests import parseDumpArgs).
if (process.argv[1] && /dumps[\\/]cli\.[mc]?[jt]s$|dump\.mjs$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`dump failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
