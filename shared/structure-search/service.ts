/**
 * (Over 300 lines on purpose: the index's single writer — full builds with their snapshot, writes
 * applied in order — and the coordinator of its scans share one state, the columns and the status.)
 * Catalog structure search in one process: the shared index (shared/structure-search/columns.ts) and
 * the coordinator that splits each search into range tasks on the process's chemistry threads.
 * Nothing here scans: this thread only writes rows, hands out ranges and merges answers.
 *
 * Used by the api in the inline mode (fed by the catalog's writes) and by each worker process in
 * the distributed mode (fed from Redis, see redis-feed.ts); in both, `catalog_search` is a local
 * task of the pool, so a search travels the same path as any other call.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AppError } from '../errors.ts';
import { IndexColumns, type IndexRow } from './columns.ts';
import type { RowInput } from '../chem/catalog/ports.ts';
import type { StoredFingerprints } from '../chem/catalog/fingerprints.ts';
import type { SubstructureResult } from './scan.ts';
import type { ChemPool, TaskRun } from '../threads/pool.ts';
import { rankBySimilarity, rankedPage, split } from './scan-plan.ts';
import { createBoard, readBoard } from './board.ts';
import { BuildKeys, rowKey, Snapshot, writeSnapshot } from './snapshot.ts';
import { runPoolTask, type TaskArgs } from '../ops/task-types.ts';
import { searchArgs, type SearchAnswer, type SearchArgs, type ShardSpec } from './contract.ts';

/** What every range of one scan shares: the query and the index. */
type ScanBase = Pick<TaskArgs<'catalog_scan_substructure'>, 'query' | 'query_type' | 'index'>;

export interface IndexStatus {
  state: 'empty' | 'building' | 'ready' | 'failed';
  molecules: number;
  /** Rows built so far / to build, while building. */
  built?: number;
  total?: number;
  /** Molecules whose stored structure RDKit cannot read (not searchable). */
  unreadable: number;
  bytes: number;
  build_ms?: number;
  error?: string;
  /** With a snapshot file: rows of the last build taken from it, rows built, and the last save. */
  snapshot?: { reused: number; built: number; saved_bytes?: number; save_ms?: number; unchanged?: boolean; error?: string };
}

const ROWS_PER_TASK = 250;
/**
 * Rows of a first page's first window (`firstHits`); each next window is twice as large, up to
 * LARGEST_WINDOW_ROWS. The threads stop as soon as the page is known, so a large window costs a
 * common query nothing; a rare one is found in few windows (each a round trip to every thread),
 * and no window is so large that a costly query (every row a candidate) outlasts SCAN_TIMEOUT_MS.
 */
const FIRST_WINDOW_ROWS = 16_384;
const LARGEST_WINDOW_ROWS = 65_536;
const BUILD_TIMEOUT_MS = 120_000;
/** A range scan slower than this means a query too expensive to match: 422, not 504. */
const SCAN_TIMEOUT_MS = 20_000;

/**
 * A full garbage collection of this thread's heap (the api's main thread inline, a worker
 * process's otherwise), once after each index build: a build leaves about a gigabyte of garbage
 * at 700,000 molecules (the saved rows read back, every molecule's page copy), which V8 keeps
 * until something allocates again; an idle api held 3.0-3.2 GB instead of about 2.1 GB after a
 * restart. Run-time --expose-gc, as the chemistry threads do (shared/threads/thread.ts).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export interface SearchServiceOptions {
  /** Told about fingerprints computed for records that lacked them (the store keeps them). */
  onFingerprints?: (items: { id: number; fingerprints: StoredFingerprints }[]) => Promise<void> | void;
  /**
   * A file for the index's rows (snapshot.ts): each full build takes the rows it can from it and
   * saves its own rows there when done, so that a restart rebuilds only what changed.
   */
  snapshot?: string;
  /**
   * The whole rows of these molecules (those still there), for a build whose pages give each
   * molecule's fingerprints only as their version (`{v}`, api/catalog/search/structure/feed.ts
   * `storePages(store, false)`): only the rows the snapshot does not have are read whole, so a
   * restart reads no fingerprints (the embedded store keeps them on disk).
   */
  complete?: (ids: number[]) => Promise<RowInput[]>;
  /** Rows of a first page's first window (default FIRST_WINDOW_ROWS); tests set fewer, to cover many windows on few molecules. */
  firstWindowRows?: number;
  /** The shard this index holds (a worker with SEARCH_SHARDS > 1, shards.ts); absent: the whole catalog. */
  shard?: ShardSpec;
}

export class SearchService {
  private cols = new IndexColumns();
  private status: IndexStatus = { state: 'empty', molecules: 0, unreadable: 0, bytes: 0 };
  /** Writes are applied one batch at a time, in order; a search waits for those before it. */
  private writes: Promise<void> = Promise.resolve();
  private unreadable = new Set<number>();
  /** Runs before each search (the distributed mode catches up with Redis there). */
  private before: () => Promise<void> = async () => {};

  /** Registers `catalog_search` as a local task of `pool`. */
  constructor(
    private readonly pool: ChemPool,
    private readonly opts: SearchServiceOptions = {},
  ) {
    pool.registerLocal('catalog_search', async (args, signal) => {
      const parsed = searchArgs.safeParse(args);
      if (!parsed.success) throw new AppError(422, `Invalid search: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`, 'invalid_input');
      this.checkShard(parsed.data.shard);
      await this.before();
      return this.search(parsed.data, signal);
    });
  }

  /** A search meant for other rows than this index holds (the api and this worker disagree on SEARCH_SHARDS) would answer wrong: 503. */
  private checkShard(asked: ShardSpec = { index: 0, of: 1 }): void {
    const mine = this.opts.shard ?? { index: 0, of: 1 };
    if (asked.index === mine.index && asked.of === mine.of) return;
    const held = mine.of === 1 ? 'the whole structure-search index' : `structure-search shard ${mine.index} of ${mine.of}`;
    const wanted = asked.of === 1 ? 'the whole index' : `shard ${asked.index} of ${asked.of}`;
    throw new AppError(503, `This worker holds ${held}, not ${wanted}: SEARCH_SHARDS must be the same on the api and every worker`, 'index_unavailable');
  }

  onSearch(fn: () => Promise<void>): void {
    this.before = fn;
  }

  private get threads(): number {
    return Math.max(1, this.pool.threads.length);
  }

  health(): IndexStatus {
    return { ...this.status, molecules: this.cols.live, bytes: this.cols.bytes, unreadable: this.unreadable.size };
  }

  /** Rows for molecules, built on the threads a few hundred per task. */
  private async rowsFor(inputs: RowInput[], onDone?: (n: number) => void): Promise<IndexRow[]> {
    const chunks: RowInput[][] = [];
    for (let i = 0; i < inputs.length; i += ROWS_PER_TASK) chunks.push(inputs.slice(i, i + ROWS_PER_TASK));
    const out: IndexRow[][] = new Array(chunks.length);
    let next = 0;
    const lane = async () => {
      while (next < chunks.length) {
        const i = next++;
        const r = await runPoolTask(this.pool, 'catalog_index_rows', { rows: chunks[i] }, { timeoutMs: BUILD_TIMEOUT_MS });
        for (const id of r.failed) this.unreadable.add(id);
        const computed = r.rows.filter((x) => x.computed).map((x) => ({ id: x.id, fingerprints: x.computed! }));
        if (computed.length) await this.opts.onFingerprints?.(computed);
        out[i] = r.rows;
        onDone?.(chunks[i].length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(chunks.length, this.threads * 2) }, lane));
    return out.flat();
  }

  /**
   * Replaces the whole index with the molecules `source` yields (pages of rows). Searches
   * meanwhile answer 503; the old index is dropped only when the new one is complete.
   */
  rebuild(source: () => AsyncIterable<RowInput[]>, expected?: number): Promise<void> {
    const run = async () => {
      const started = Date.now();
      this.status = { ...this.health(), state: 'building', built: 0, total: expected };
      try {
        const saved = await this.readSnapshot();
        const keys = new BuildKeys();
        let reused = 0;
        let built = 0;
        const cols = new IndexColumns(Math.max(1024, expected ?? 0));
        this.unreadable.clear();
        for await (const page of source()) {
          const rows: IndexRow[] = [];
          const build: RowInput[] = [];
          for (const input of page) {
            const key = rowKey(input);
            keys.push(input.id, key);
            const row = saved?.row(input.id, key);
            if (row) rows.push(row);
            else build.push(input);
          }
          reused += rows.length;
          built += build.length;
          this.status.built = (this.status.built ?? 0) + rows.length;
          const whole = build.length && this.opts.complete ? await this.opts.complete(build.map((r) => r.id)) : build;
          rows.push(...(await this.rowsFor(whole, (n) => (this.status.built = (this.status.built ?? 0) + n))));
          rows.sort((a, b) => a.id - b.id);
          cols.put(rows);
        }
        if (cols.untidy) cols.compact();
        this.cols = cols;
        this.status = { state: 'ready', molecules: cols.live, unreadable: this.unreadable.size, bytes: cols.bytes, build_ms: Date.now() - started, ...(this.opts.snapshot ? { snapshot: { reused, built } } : {}) };
        // Every saved row taken and none built: the file already holds these rows, byte for byte.
        if (saved && built === 0 && reused === saved.rows && !this.lastSnapshotError) this.status.snapshot!.unchanged = true;
        else this.saveSnapshot(keys);
        setImmediate(collectGarbage);
      } catch (e) {
        this.status = { ...this.health(), state: 'failed', error: (e as Error)?.message ?? String(e) };
        throw e;
      }
    };
    this.writes = this.writes.catch(() => {}).then(run);
    return this.writes;
  }

  /** The last build's rows, when a snapshot file is set and holds a readable one. */
  private async readSnapshot(): Promise<Snapshot | null> {
    if (!this.opts.snapshot) return null;
    try {
      return await Snapshot.read(this.opts.snapshot);
    } catch (e) {
      // A cache: a broken file means building every row, and the save after the build replaces it.
      this.lastSnapshotError = `the snapshot could not be read (${(e as Error).message}); every row was built`;
      return null;
    }
  }

  private lastSnapshotError?: string;

  /**
   * Saves the rows just built, in the background: the rows saved are never written again (later
   * writes go after them or to fresh buffers), so searches and writes go on meanwhile.
   */
  private saveSnapshot(keys: BuildKeys): void {
    const path = this.opts.snapshot;
    const status = this.status.snapshot;
    if (!path || !status) return;
    if (this.lastSnapshotError) status.error = this.lastSnapshotError;
    this.lastSnapshotError = undefined;
    const started = Date.now();
    const source = this.cols.snapshotSource(keys);
    this.saving = writeSnapshot(path, source).then(
      (bytes) => Object.assign(status, { saved_bytes: bytes, save_ms: Date.now() - started }),
      (e: Error) => (status.error = `the snapshot could not be saved: ${e.message}`),
    );
  }

  /** The snapshot save in progress (tests and shutdown wait for it). */
  saving: Promise<unknown> = Promise.resolve();

  /** Adds or replaces molecules and removes others, in the order calls are made. */
  apply(put: RowInput[], remove: number[] = []): Promise<void> {
    const run = async () => {
      for (const id of remove) {
        this.cols.remove(id);
        this.unreadable.delete(id);
      }
      if (put.length) {
        for (const p of put) this.unreadable.delete(p.id);
        const rows = await this.rowsFor(put);
        rows.sort((a, b) => a.id - b.id);
        // A molecule that became unreadable must not stay findable under its old structure.
        for (const id of this.unreadable) this.cols.remove(id);
        this.cols.put(rows);
      }
      if (this.cols.untidy) this.cols.compact();
    };
    this.writes = this.writes.catch(() => {}).then(run);
    return this.writes;
  }

  async search(args: SearchArgs, signal?: AbortSignal): Promise<SearchAnswer> {
    await this.writes.catch(() => {});
    if (this.status.state !== 'ready') {
      throw new AppError(503, `The structure search index is ${this.status.state === 'building' ? `being built (${this.status.built ?? 0} of ${this.status.total ?? '?'} molecules)` : this.status.state}; try again shortly`, 'index_unavailable');
    }
    const view = this.cols.view();
    const molecules = this.cols.live;
    if (view.count === 0) return { ids: [], ...(args.type === 'similarity' ? { scores: [] } : {}), total: 0, more: false, stats: { scanned: 0, candidates: 0, molecules } };
    const exclude = new Set(args.exclude ?? []);
    const base = { query: args.query, query_type: args.query_type, index: view };
    const n = Math.max(1, view.count);
    const runs: TaskRun[] = [];
    const stop = () => runs.forEach((r) => r.cancel());
    signal?.addEventListener('abort', stop, { once: true });
    try {
      if (args.type === 'similarity') {
        const threshold = args.threshold ?? 0.7;
        const parts = split(n, this.threads);
        const results = await Promise.all(
          parts.map(([from, to]) => {
            const r = runPoolTask(this.pool, 'catalog_scan_similarity', { ...base, from, to, threshold }, { timeoutMs: SCAN_TIMEOUT_MS });
            runs.push(r);
            return r;
          }),
        );
        // Similarity's candidates are its hits: the scan keeps only those over the threshold.
        const candidates = results.reduce((sum, r) => sum + r.ids.filter((id) => !exclude.has(id)).length, 0);
        return rankedPage(results, exclude, args, { scanned: view.count, candidates, molecules });
      }
      return await this.substructure(args, base, n, exclude, runs, molecules);
    } catch (e) {
      stop();
      const app = AppError.from(e);
      if (app?.code === 'timeout') {
        throw new AppError(422, `The structure query is too expensive to match: a range of the index took more than ${SCAN_TIMEOUT_MS / 1000} s`, 'query_too_expensive');
      }
      throw e;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Substructure. A count, a ranked page or every hit: ranges in row (= id) order, a few per
   * thread, every hit of each. A first page without a count: windows of rows from the first,
   * growing, each scanned by every thread at once, the threads sharing its candidates (board.ts),
   * until the windows hold the hits the page needs.
   */
  private async substructure(args: SearchArgs, base: ScanBase, n: number, exclude: Set<number>, runs: TaskRun[], molecules: number): Promise<SearchAnswer> {
    const ranked = args.order === 'similarity';
    const need = ranked || args.count || !args.limit ? 0 : args.offset + args.limit + 1 + exclude.size;
    if (need) return this.firstHits(args, base, n, need, exclude, runs, molecules);
    const parts = split(n, Math.max(this.threads * 4, Math.ceil(n / 20_000)));
    const done: SubstructureResult[] = new Array(parts.length);
    let next = 0;
    const lane = async () => {
      while (next < parts.length) {
        const i = next++;
        const [from, to] = parts[i];
        const r = runPoolTask(this.pool, 'catalog_scan_substructure', { ...base, from, to, use_chirality: !!args.use_chirality, scores: ranked }, { timeoutMs: SCAN_TIMEOUT_MS });
        runs.push(r);
        done[i] = await r;
      }
    };
    await Promise.all(Array.from({ length: Math.min(parts.length, this.threads * 2) }, lane));
    if (ranked) return rankBySimilarity(done, exclude, args, molecules);
    const ids = done.flatMap((d) => d.ids).filter((id) => !exclude.has(id));
    const page = args.limit ? ids.slice(args.offset, args.offset + args.limit) : ids.slice(args.offset);
    const stats = { scanned: done.reduce((sum, d) => sum + d.screened, 0), candidates: done.reduce((sum, d) => sum + d.candidates, 0), molecules };
    return { ids: page, total: ids.length, more: args.offset + page.length < ids.length, stats };
  }

  /** The first `need` hits in row order (fewer when the index holds fewer: then the total is known). */
  private async firstHits(args: SearchArgs, base: ScanBase, n: number, need: number, exclude: Set<number>, runs: TaskRun[], molecules: number): Promise<SearchAnswer> {
    const lanes = this.threads;
    const found: number[] = [];
    let scanned = 0;
    let candidates = 0;
    let size = this.opts.firstWindowRows ?? FIRST_WINDOW_ROWS;
    let from = 0;
    let whole = true;
    while (from < n) {
      const to = Math.min(n, from + size);
      // A window cannot hold more hits than rows: a deep page's board stays the window's size.
      const want = Math.min(need - found.length, to - from + 1);
      const board = createBoard(lanes, want);
      const results = await Promise.all(
        Array.from({ length: lanes }, (_, lane) => {
          const r = runPoolTask(this.pool, 'catalog_scan_first_hits', { ...base, from, to, use_chirality: !!args.use_chirality, need: want, lane, lanes, board }, { timeoutMs: SCAN_TIMEOUT_MS });
          runs.push(r);
          return r;
        }),
      );
      const window = readBoard(board, lanes, results);
      found.push(...window.ids);
      scanned += Math.max(...results.map((r) => r.screened));
      candidates += results.reduce((sum, r) => sum + r.candidates, 0);
      if (!window.whole) {
        whole = false;
        break;
      }
      from = to;
      size = Math.min(LARGEST_WINDOW_ROWS, size * 2);
    }
    const ids = found.filter((id) => !exclude.has(id));
    const page = args.limit ? ids.slice(args.offset, args.offset + args.limit) : ids.slice(args.offset);
    return { ids: page, total: whole ? ids.length : null, more: args.offset + page.length < ids.length, stats: { scanned, candidates, molecules } };
  }
}
