/**
 * The shipped demo data set (api/catalog/data, LOTUS CC0 + COCONUT collection names CC BY 4.0)
 * and the first-start seeding of an empty embedded store.
 *
 * Load order: the collection tables first, so collections get their titles, URLs and descriptions
 * from them, then the curated validated set, then the LOTUS export sample. On an empty store this
 * gives 1,242 molecules, 1,234 organisms, 1,348 citations, 93 collections and 4,082 links (see
 * test/catalog-import/demo.test.ts for the independent counts).
 *
 * Seeding runs in the background: the import takes tens of seconds (each structure is derived on
 * a worker thread), and the server must answer meanwhile. A `meta` record `demo_seed` marks the
 * import as running or done, so a restart resumes an interrupted import (the import is an upsert,
 * so running it again is harmless) and never re-imports into a catalog whose demo rows the users
 * have since deleted.
 */
import { fileURLToPath } from 'node:url';
import type { Derive } from '../mutate/derived.ts';
import type { CatalogStore } from '../store/types.ts';
import { importFile, type ImportOptions, type ImportSummary } from './run.ts';

export const DEMO_FILES: readonly string[] = [
  'lotus_source_databases.csv.gz',
  'coconut_collections.csv.gz',
  'lotus_manually_validated_413.tsv.gz',
  'lotus_sample_1000.tsv.gz',
].map((f) => fileURLToPath(new URL(`../data/${f}`, import.meta.url)));

/** Imports every demo file in order; `onFile` hears each file's summary. */
export async function importDemo(
  store: CatalogStore,
  opts: ImportOptions & { onFile?: (path: string, summary: ImportSummary) => void },
): Promise<ImportSummary[]> {
  const out: ImportSummary[] = [];
  for (const path of DEMO_FILES) {
    const summary = await importFile(store, path, opts);
    opts.onFile?.(path, summary);
    out.push(summary);
  }
  return out;
}

/** The subset of a pino/Fastify logger the seeding writes to. */
export interface SeedLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface SeedStatus {
  /** `skipped`: nothing to do (see `reason`); `stopped`: `stop()` was called, resumed at next start. */
  state: 'skipped' | 'running' | 'done' | 'failed' | 'stopped';
  reason?: string;
  /** File being imported (base name) while running. */
  file?: string;
  filesDone: number;
  files: number;
  /** Rows written so far, over all files. */
  rows: number;
  /** Molecules, organisms, citations, collections and links created so far. */
  created: Record<'molecules' | 'organisms' | 'citations' | 'collections' | 'links', number>;
  rejected: number;
  error?: string;
}

export interface SeedHandle {
  status(): SeedStatus;
  /** Settles when the import ends (never rejects; the state says how it ended). */
  done: Promise<SeedStatus>;
  /** Stops a running import between rows and waits for it (call before closing the store). */
  stop(): Promise<void>;
}

const KEY = 'demo_seed';
const CATALOG = ['molecules', 'organisms', 'citations', 'collections'] as const;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Decides under the store lock whether this process imports, and claims the marker if so. */
async function claim(store: CatalogStore): Promise<string | null> {
  if (store.kind !== 'embedded') return 'not the embedded store (MONGO_URL is set)';
  return store.exclusive(async () => {
    const mark = await store.findOne('meta', { key: KEY });
    if (mark?.state === 'done') return `the demo set was imported on ${String(mark.finished_at)}`;
    const pid = Number(mark?.pid);
    if (mark?.state === 'running' && pid !== process.pid && alive(pid)) return `process ${pid} is importing the demo set`;
    if (!mark) {
      for (const c of CATALOG) if (await store.count(c, {})) return `the catalog is not empty (${c})`;
    }
    const set = { state: 'running', pid: process.pid, started_at: new Date().toISOString() };
    if (mark) await store.update('meta', mark.id, set);
    else await store.insert('meta', { key: KEY, ...set });
    return null;
  });
}

/**
 * Imports the demo files into an empty embedded store, in the background. Resolves at once with
 * a handle (status, completion, stop). `derive` is the service's derivation (worker jobs).
 */
export async function seedDemoIfEmpty(store: CatalogStore, opts: { derive: Derive; log: SeedLog; lookahead?: number }): Promise<SeedHandle> {
  const status: SeedStatus = {
    state: 'running',
    filesDone: 0,
    files: DEMO_FILES.length,
    rows: 0,
    created: { molecules: 0, organisms: 0, citations: 0, collections: 0, links: 0 },
    rejected: 0,
  };
  const snapshot = () => structuredClone(status);
  const reason = await claim(store);
  if (reason) {
    Object.assign(status, { state: 'skipped', reason });
    opts.log.info(`demo import skipped: ${reason}`);
    return { status: snapshot, done: Promise.resolve(snapshot()), stop: async () => undefined };
  }
  const abort = new AbortController();
  opts.log.info(`demo import started in the background (${DEMO_FILES.length} files; SEED_DEMO=false turns it off)`);
  const done = (async () => {
    let before = 0;
    try {
      await importDemo(store, {
        derive: opts.derive,
        lookahead: opts.lookahead,
        signal: abort.signal,
        onProgress: (p) => {
          status.file = DEMO_FILES[status.filesDone]?.split('/').at(-1);
          status.rows = before + p.row;
        },
        onFile: (path, s) => {
          before += s.rows;
          status.filesDone++;
          for (const k of Object.keys(status.created) as (keyof SeedStatus['created'])[]) status.created[k] += s.created[k];
          status.rejected += s.rejected_count;
          opts.log.info(`demo import: ${path.split('/').at(-1)}: ${s.rows} rows, created ${JSON.stringify(s.created)}, ${s.rejected_count} rejected`);
        },
      });
      await store.exclusive(async () => {
        const mark = await store.findOne('meta', { key: KEY });
        if (mark) await store.update('meta', mark.id, { state: 'done', finished_at: new Date().toISOString(), created: status.created });
      });
      Object.assign(status, { state: 'done', file: undefined });
      opts.log.info(`demo import done: ${JSON.stringify(status.created)}`);
    } catch (err) {
      // The marker stays `running`: the next start resumes (rows already written are matched).
      if (abort.signal.aborted) {
        status.state = 'stopped';
        opts.log.warn(`demo import stopped after ${status.rows} rows; it resumes at the next start`);
      } else {
        Object.assign(status, { state: 'failed', error: err instanceof Error ? err.message : String(err) });
        opts.log.error(`demo import failed after ${status.rows} rows: ${status.error}; it is retried at the next start`);
      }
    }
    return snapshot();
  })();
  return {
    status: snapshot,
    done,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}
