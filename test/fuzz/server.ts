/**
 * The server under fuzz: the whole app as the tests build it (test/helpers/app.ts: real RDKit
 * threads, inline or BullMQ on a real Redis, embedded store in a temp dir), listening on a free
 * port, with a small real catalog (corpus/catalog-seed.tsv imported through the service's own
 * derivation), the structure-search index built, and tokens for each role.
 *
 * It also watches what must not happen: chemistry threads failing (Piscina `error` events) or
 * exiting (`workerDestroy`: a thread replaced after a WASM fault or a time limit is counted and
 * reported apart), and it snapshots the catalog (count and hash of every document) so a run can
 * prove that refused writes changed nothing.
 */
import { createHash } from 'node:crypto';
import { build, type Mode, type TestApp } from '../helpers/app.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { importFile } from '../../api/catalog/import/run.ts';
import type { CollectionName } from '../../api/catalog/store/types.ts';
import type { ChemPool } from '../../shared/threads/pool.ts';
import { corpus } from './corpus.ts';
import { startFakeExtdb } from './fake-extdb.ts';
import type { Context } from './types.ts';

/** Collections whose documents a refused write must leave as they were. */
export const SNAPSHOT: CollectionName[] = ['molecules', 'organisms', 'citations', 'collections', 'users'];

export interface Snapshot {
  counts: Record<string, number>;
  /** `<collection>/<id>` → SHA-256 of the document (keys sorted). */
  docs: Map<string, string>;
  hash: string;
}

export interface StoreDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface ThreadWatch {
  /** Piscina `error` events: a thread that failed outside a task. */
  errors: string[];
  /** Threads that exited (replaced): after WASM faults and time limits, or crashes. */
  exits: number;
  created: number;
  idsAtStart: number[];
}

export interface FuzzServer {
  base: string;
  host: string;
  port: number;
  mode: Mode;
  ctx: Context;
  app: TestApp;
  limits: { bodyLimit: number; uploadLimit: number };
  threads: ThreadWatch;
  pools: ChemPool[];
  snapshot(): Promise<Snapshot>;
  threadIds(): number[];
  close(): Promise<void>;
}

/** Configuration of the fuzz server beyond test/helpers/app.ts (which already turns rate limits off). */
export const FUZZ_ENV: Record<string, string> = {
  WORKERS: '2',
  // Uploads over the limit are part of the fuzz: a small limit keeps them cheap.
  UPLOAD_LIMIT: String(2 * 1024 * 1024),
  // Long jobs (structure generation, PDFs) the fuzzer follows end within this.
  LONG_TASK_TIMEOUT_MS: '30000',
  // EXTDB_URL: a hostile local stand-in (fake-extdb.ts), set when the server starts.
  EXTDB_TIMEOUT_MS: '2000',
  CATALOG_REGISTRATION: 'true',
  LONG_JOBS_PER_CLIENT: '0',
  RATE_LIMIT_QUICK: '0',
  RATE_LIMIT_LONG: '0',
  RATE_LIMIT_WRITES: '0',
};

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

export function diffSnapshots(a: Snapshot, b: Snapshot): StoreDiff {
  const added = [...b.docs.keys()].filter((k) => !a.docs.has(k));
  const removed = [...a.docs.keys()].filter((k) => !b.docs.has(k));
  const changed = [...a.docs.keys()].filter((k) => b.docs.has(k) && b.docs.get(k) !== a.docs.get(k));
  return { added, removed, changed };
}

export async function startServer(mode: Mode, env: Record<string, string> = {}): Promise<FuzzServer | undefined> {
  const teardowns: (() => unknown)[] = [];
  const extdb = await startFakeExtdb();
  teardowns.push(() => extdb.close());
  env = { EXTDB_URL: extdb.url, ...env };
  const app = await build({ teardown: (fn) => teardowns.push(fn) }, mode, { ...FUZZ_ENV, ...env });
  if (!app) {
    await extdb.close();
    return undefined;
  }
  const { services, config } = app;
  const store = services.store;

  // A small real catalog: organisms, citations, collections and molecules with their links.
  await importFile(store, corpus().catalogSeedFile, { derive: services.derive });
  await services.searchIndex.start();
  const adminEmail = 'fuzz-admin@example.org';
  const adminPassword = 'fuzz-admin-password';
  const admin = await ensureUser(store, adminEmail, 'admin', adminPassword);
  const curator = await ensureUser(store, 'fuzz-curator@example.org', 'curator');
  const reader = await ensureUser(store, 'fuzz-reader@example.org', 'reader');
  const tokens = { admin: await issueToken(store, admin.id), curator: await issueToken(store, curator.id), reader: await issueToken(store, reader.id) };
  const idsOf = async (coll: CollectionName) => (await store.find(coll, {}, { fields: ['id'] })).map((d) => d.id);
  const molecules = await store.find('molecules', {}, { fields: ['canonical_smiles', 'standard_inchi_key'] });
  const ctx: Context = {
    tokens,
    adminEmail,
    adminPassword,
    ids: { molecules: await idsOf('molecules'), organisms: await idsOf('organisms'), citations: await idsOf('citations'), collections: await idsOf('collections'), users: await idsOf('users') },
    stored: { smiles: molecules.map((m) => String(m.canonical_smiles)), inchikeys: molecules.map((m) => String(m.standard_inchi_key)) },
  };

  const pools = [services.pool, app.worker?.pool].filter((p): p is ChemPool => !!p);
  const threadIds = () => pools.flatMap((p) => p.threads.map((w) => w.threadId)).sort((a, b) => a - b);
  const threads: ThreadWatch = { errors: [], exits: 0, created: 0, idsAtStart: threadIds() };
  for (const p of pools) {
    p.piscina.on('error', (e: unknown) => threads.errors.push(String((e as Error)?.message ?? e)));
    p.piscina.on('workerDestroy', () => threads.exits++);
    p.piscina.on('workerCreate', () => threads.created++);
  }

  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.app.server.address() as { port: number }).port;

  return {
    base: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    mode,
    ctx,
    app,
    limits: { bodyLimit: config.BODY_LIMIT, uploadLimit: config.UPLOAD_LIMIT },
    threads,
    pools,
    threadIds,
    async snapshot() {
      const counts: Record<string, number> = {};
      const docs = new Map<string, string>();
      const all = createHash('sha256');
      for (const coll of SNAPSHOT) {
        const found = (await store.find(coll, {})).sort((a, b) => a.id - b.id);
        counts[coll] = found.length;
        for (const d of found) {
          const h = createHash('sha256').update(stable(d)).digest('hex');
          docs.set(`${coll}/${d.id}`, h);
          all.update(`${coll}/${d.id}:${h}\n`);
        }
      }
      return { counts, docs, hash: all.digest('hex') };
    },
    async close() {
      // Every teardown runs, even after one throws (the api's answer check throws at teardown).
      let failure: unknown;
      for (const fn of teardowns.reverse()) {
        try {
          await fn();
        } catch (e) {
          failure ??= e;
        }
      }
      if (failure) throw failure;
    },
  };
}
