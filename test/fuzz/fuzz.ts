/**
 * One fuzz run: start the server, snapshot it, fire the cases (a pool of concurrent senders),
 * follow jobs, then check what must hold: no 5xx (a 503 only where an external service is asked),
 * no dropped connection, no answerless request, no thread or process crash, every write refused
 * and the catalog unchanged, /health still answering. Nothing here is about time.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Mode } from '../helpers/app.ts';
import { Client, type Answer } from './client.ts';
import { diffSnapshots, startServer } from './server.ts';
import { generateCase } from './targets.ts';
import type { Case } from './types.ts';
import type { Finding, FindingKind, MemorySample, Report } from './report.ts';

export type { Finding, FindingKind, MemorySample, Report } from './report.ts';
export { formatReport } from './report.ts';

export interface FuzzOptions {
  seed: number;
  cases: number;
  concurrency: number;
  mode: Mode;
  /** Only these case numbers (replay). */
  only?: number[];
  /** Client time limit per request. */
  timeoutMs?: number;
  /** How long a followed job may run before the fuzzer cancels it. */
  followMs?: number;
  log?: (line: string) => void;
  /** Print each case as it is answered. */
  verbose?: boolean;
  /**
   * Cases run before the measured ones (numbered after them, so case N stays the same input),
   * checked like every other; the memory at their end is the run's starting figure.
   */
  warmup?: number;
  /** Print the memory at every progress line. */
  memory?: boolean;
}

const MB = 1048576;
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
/**
 * The process's memory after a full collection of its main heap (so that a figure is what is
 * kept, not where V8's collector happened to be: the fuzzer's own requests of up to 20 MB live
 * in the same heap), and each chemistry thread's RDKit WebAssembly memory (MiB).
 */
function memorySample(pools: { wasmMemory(): number[] }[]): MemorySample {
  collect();
  const m = process.memoryUsage();
  const mb = (n: number) => Math.round(n / MB);
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers), wasmMb: pools.flatMap((p) => p.wasmMemory()).map(mb) };
}
const formatMemory = (m: MemorySample) => `rss ${m.rssMb} MB (heap ${m.heapUsedMb}, external ${m.externalMb}, array buffers ${m.arrayBuffersMb}; WASM per thread ${m.wasmMb.join('/')} MiB)`;

const inc = (m: Record<string, number>, k: string, n = 1) => (m[k] = (m[k] ?? 0) + n);
const text = (a: Answer) => (a.body ? a.body.subarray(0, 400).toString('utf8') : '');
const json = <T>(a: Answer): T | undefined => {
  try {
    return JSON.parse(a.body?.toString('utf8') ?? '') as T;
  } catch {
    return undefined;
  }
};

/** The status a tool call over MCP ended with (its REST status), from the JSON-RPC answer. */
function mcpStatuses(body: string): number[] {
  let msgs: unknown;
  try {
    msgs = JSON.parse(body);
  } catch {
    // An SSE-framed answer: the JSON is in its data lines.
    msgs = body.split('\n').filter((l) => l.startsWith('data:')).map((l) => {
      try {
        return JSON.parse(l.slice(5));
      } catch {
        return undefined;
      }
    });
  }
  const out: number[] = [];
  for (const m of Array.isArray(msgs) ? msgs : [msgs]) {
    const r = (m as { result?: { isError?: boolean; content?: { text?: string }[] } })?.result;
    if (!r?.content) continue;
    if (!r.isError) out.push(200);
    else {
      const s = /Status code: (\d+)/.exec(r.content[0]?.text ?? '');
      out.push(s ? Number(s[1]) : 400);
    }
  }
  return out;
}

export async function runFuzz(opts: FuzzOptions): Promise<Report> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const followMs = opts.followMs ?? 20_000;
  const started = performance.now();

  const crashes: string[] = [];
  const onUncaught = (e: unknown) => {
    crashes.push(`uncaught exception: ${(e as Error)?.stack ?? e}`);
    log(`  PROCESS: uncaught exception: ${(e as Error)?.stack ?? e}`);
  };
  const onUnhandled = (e: unknown) => {
    crashes.push(`unhandled rejection: ${(e as Error)?.stack ?? e}`);
    log(`  PROCESS: unhandled rejection: ${(e as Error)?.stack ?? e}`);
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUnhandled);

  const server = await startServer(opts.mode);
  if (!server) throw new Error(`FUZZ_MODE=${opts.mode}: no Redis available (set REDIS_URL, run one on 127.0.0.1:6379, or install redis-server)`);
  const client = new Client(server.host, server.port, timeoutMs, opts.concurrency + 40);
  const before = await server.snapshot();
  const warmup = opts.only ? 0 : (opts.warmup ?? 0);
  const atStart = memorySample(server.pools);
  log(`fuzz: seed ${opts.seed}, ${opts.only ? `cases ${opts.only.join(',')}` : `${opts.cases} cases${warmup ? ` after ${warmup} of warm-up` : ''}`}, concurrency ${opts.concurrency}, ${opts.mode} mode, server ${server.base}, catalog ${JSON.stringify(before.counts)}`);

  const report: Report = {
    seed: opts.seed, warmup, mode: opts.mode, cases: 0, requests: 0, perTarget: {}, statuses: {}, statusesPerTarget: {}, mcpToolStatuses: {}, jobs: {},
    retriedOnFreshSocket: 0, timeouts: [], busy: {}, slowest: [], generatorErrors: [], unsendable: 0, findings: [],
    counts: { fiveXX: 0, dropped: 0, noAnswer: 0, crashes: 0, changedRecords: 0, writesAccepted: 0, writes: 0 },
    threads: { exits: 0, created: 0, retired: 0, errors: [], idsAtStart: server.threadIds(), idsAtEnd: [] },
    rss: { beforeMb: 0, afterMb: 0 }, memory: { start: atStart, afterWarmup: atStart, end: atStart, peakRssMb: atStart.rssMb }, store: { before: before.hash, after: '', counts: before.counts, diff: { added: [], removed: [], changed: [] } }, health: 0, seconds: 0,
  };
  /** A 5xx that is a finding: not a 503 of an external service, not a time limit (504, listed apart). */
  const serverFault = (i: number, c: Case, status: number, detail: string) => {
    if (status === 504) {
      report.timeouts.push({ index: i, label: `${c.target} ${c.label}`, detail: detail.slice(0, 200) });
      return false;
    }
    return status >= 500 && !(status === 503 && c.external);
  };
  const find = (f: Finding) => {
    report.findings.push(f);
    if (opts.verbose) log(`  FINDING ${f.kind} #${f.index} ${f.target} ${f.label} ${f.status ?? ''} ${f.detail ?? ''}`);
  };

  /** Polls a job (`/jobs/{id}`, or an export's status URL with the request's token) to its end. */
  const followJob = async (i: number, c: Case, id: string, exportJob: boolean) => {
    const deadline = performance.now() + followMs;
    const path = exportJob ? `/api/exports/${encodeURIComponent(id)}` : `/jobs/${encodeURIComponent(id)}`;
    const headers = exportJob && c.req.headers?.authorization ? { authorization: c.req.headers.authorization } : undefined;
    for (;;) {
      await new Promise((r) => setTimeout(r, 150));
      const a = await client.send({ method: 'GET', path, headers });
      report.requests++;
      if (a.status !== 200) {
        inc(report.jobs, `poll ${a.status ?? a.dropped}`);
        if (a.dropped) find({ kind: 'dropped', index: i, target: c.target, label: `${c.label} (job poll)`, detail: a.dropped });
        if (serverFault(i, c, a.status ?? 0, text(a))) find({ kind: '5xx', index: i, target: c.target, label: `${c.label} (job poll)`, status: a.status, detail: text(a) });
        return;
      }
      const rec = json<{ status?: string; error?: { status?: number; detail?: unknown } | string }>(a) ?? {};
      if (exportJob && (rec.status === 'succeeded' || rec.status === 'failed')) {
        inc(report.jobs, `export ${rec.status}`);
        // An export is validated before it is accepted: a failure after that is the server's.
        if (rec.status === 'failed') find({ kind: 'job-failed', index: i, target: c.target, label: c.label, detail: JSON.stringify(rec.error).slice(0, 300) });
        return;
      }
      if (typeof rec.error === 'string') rec.error = { detail: rec.error };
      if (rec.status === 'succeeded' || rec.status === 'failed' || rec.status === 'cancelled') {
        inc(report.jobs, rec.status === 'failed' ? `failed ${rec.error?.status}` : rec.status);
        const s = rec.error?.status ?? 0;
        if (serverFault(i, c, s, JSON.stringify(rec.error?.detail))) find({ kind: 'job-5xx', index: i, target: c.target, label: c.label, status: s, detail: JSON.stringify(rec.error?.detail).slice(0, 300) });
        return;
      }
      if (performance.now() > deadline) {
        inc(report.jobs, 'still running: cancelled by the fuzzer');
        if (!exportJob) await client.send({ method: 'DELETE', path });
        return;
      }
    }
  };

  const classify = async (i: number, c: Case, a: Answer) => {
    report.requests++;
    if (a.retried) {
      // Closed without an answer on a reused keep-alive socket: a finding (test/fuzz/client.ts).
      report.retriedOnFreshSocket++;
      find({ kind: 'dropped', index: i, target: c.target, label: c.label, detail: `${a.retried} on a reused keep-alive connection before any answer (then ${a.status ?? a.dropped ?? 'no answer'} on a fresh one)` });
    }
    if (a.status === -1) {
      report.unsendable++;
      return;
    }
    const key = a.timedOut ? 'no answer' : a.dropped ? 'dropped' : String(a.status);
    inc(report.busy, `${c.target} ${c.label.replace(/\d+/g, 'N')}`, a.ms / 1000);
    if (report.slowest.length < 15 || a.ms > report.slowest[report.slowest.length - 1].ms) {
      report.slowest.push({ index: i, label: `${c.target} ${c.label}`, ms: Math.round(a.ms), status: key });
      report.slowest.sort((x, y) => y.ms - x.ms).splice(15);
    }
    inc(report.statuses, key);
    inc((report.statusesPerTarget[c.target] ??= {}), key);
    if (opts.verbose) log(`#${i} ${c.target} ${c.label} → ${key} (${a.ms.toFixed(0)} ms)`);
    if (a.timedOut) return find({ kind: 'no-answer', index: i, target: c.target, label: c.label, detail: `${c.req.method} ${c.req.path.slice(0, 120)}` });
    if (a.dropped) return find({ kind: 'dropped', index: i, target: c.target, label: c.label, detail: a.dropped });
    const status = a.status!;
    if (serverFault(i, c, status, text(a))) find({ kind: '5xx', index: i, target: c.target, label: c.label, status, detail: text(a).slice(0, 300) });
    if (c.write) {
      report.counts.writes++;
      if (status >= 200 && status < 300) find({ kind: 'write-accepted', index: i, target: c.target, label: c.label, status, detail: text(a).slice(0, 300) });
    }
    if (c.mcp && status === 200) {
      for (const s of mcpStatuses(a.body?.toString('utf8') ?? '')) {
        inc(report.mcpToolStatuses, String(s));
        if (serverFault(i, c, s, text(a))) find({ kind: 'mcp-5xx', index: i, target: c.target, label: c.label, status: s, detail: text(a).slice(0, 300) });
      }
    }
    if (c.follow && status === 202) {
      const sub = json<{ job_id?: string; status_url?: string }>(a);
      if (sub?.job_id) await followJob(i, c, sub.job_id, !!sub.status_url?.includes('/api/exports/'));
    }
  };

  // What is in flight, so that a stalled run says what it waits for.
  const inflight = new Map<number, { label: string; since: number }>();
  let lastProgress = performance.now();
  const stallTimer = setInterval(() => {
    if (performance.now() - lastProgress < 15_000 || !inflight.size) return;
    const now = performance.now();
    log(`  waiting for ${inflight.size} request(s): ${[...inflight.entries()].slice(0, 8).map(([i, x]) => `#${i} ${x.label} (${((now - x.since) / 1000).toFixed(0)} s)`).join('; ')}`);
    lastProgress = now;
  }, 5_000);
  stallTimer.unref();
  const track = async <T>(i: number, label: string, p: Promise<T>): Promise<T> => {
    inflight.set(i, { label, since: performance.now() });
    try {
      return await p;
    } finally {
      inflight.delete(i);
      lastProgress = performance.now();
    }
  };

  const sample = () => {
    const m = memorySample(server.pools);
    report.memory.peakRssMb = Math.max(report.memory.peakRssMb, m.rssMb);
    return m;
  };
  // The highest RSS seen (sampled every 500 ms, no collection forced, and at every sample).
  const peakTimer = setInterval(() => (report.memory.peakRssMb = Math.max(report.memory.peakRssMb, Math.round(process.memoryUsage.rss() / MB))), 500);
  peakTimer.unref();
  const send = async (queue: number[], phase: string) => {
    let next = 0;
    let done = 0;
    const progressEvery = Math.max(1, Math.floor(queue.length / 20));
    const sender = async () => {
      while (next < queue.length) {
        const i = queue[next++];
        let c: Case;
        try {
          c = generateCase(opts.seed, i, server.ctx, server.limits);
        } catch (e) {
          // A fault of the fuzzer itself, not of the server: reported, never hidden.
          report.generatorErrors.push(`case ${i}: ${(e as Error)?.stack ?? e}`);
          continue;
        }
        report.cases++;
        inc(report.perTarget, c.target);
        await track(i, `${c.target} ${c.label}`, (async () => {
          if (c.burst) {
            const answers = await Promise.all(Array.from({ length: c.burst }, () => client.send(c.req)));
            for (const a of answers) await classify(i, c, a);
          } else {
            await classify(i, c, await client.send(c.req));
          }
        })()).catch((e: unknown) => report.generatorErrors.push(`case ${i} (runner): ${(e as Error)?.stack ?? e}`));
        if (++done % progressEvery === 0) log(`  ${phase}${done}/${queue.length} cases, ${report.findings.length} findings, ${((performance.now() - started) / 1000).toFixed(0)} s${opts.memory ? `, ${formatMemory(sample())}` : ''}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency, queue.length) }, sender));
  };
  if (warmup) {
    await send(Array.from({ length: warmup }, (_, i) => opts.cases + i), 'warm-up: ');
    report.memory.afterWarmup = sample();
    log(`  after ${warmup} warm-up cases: ${formatMemory(report.memory.afterWarmup)}`);
  }
  await send(opts.only ?? Array.from({ length: opts.cases }, (_, i) => i), '');
  report.memory.end = sample();
  clearInterval(stallTimer);
  clearInterval(peakTimer);
  log('  all cases answered; final checks');

  // Background work a write may have queued, then the final checks.
  const h = await client.send({ method: 'GET', path: '/health' });
  report.health = h.status ?? h.dropped ?? 'no answer';
  if (h.status !== 200) find({ kind: 'health', status: h.status, detail: h.dropped ?? text(h) });
  const after = await server.snapshot();
  report.store.after = after.hash;
  report.store.diff = diffSnapshots(before, after);
  const changed = report.store.diff.added.length + report.store.diff.removed.length + report.store.diff.changed.length;
  if (changed) find({ kind: 'store-changed', detail: JSON.stringify(report.store.diff).slice(0, 2000) });
  report.threads = { ...report.threads, exits: server.threads.exits, created: server.threads.created, retired: server.pools.reduce((n, p) => n + (p.retired ?? 0), 0), errors: server.threads.errors, idsAtEnd: server.threadIds() };
  for (const e of server.threads.errors) find({ kind: 'thread-crash', detail: e });
  for (const e of crashes) find({ kind: 'process-crash', detail: e.slice(0, 2000) });
  report.rss = { beforeMb: report.memory.afterWarmup.rssMb, afterMb: report.memory.end.rssMb };

  const count = (...k: FindingKind[]) => report.findings.filter((f) => k.includes(f.kind)).length;
  report.counts = {
    ...report.counts,
    fiveXX: count('5xx', 'mcp-5xx', 'job-5xx'),
    dropped: count('dropped'),
    noAnswer: count('no-answer'),
    crashes: count('thread-crash', 'process-crash') + report.findings.filter((f) => /worker_crash|Worker thread failed/.test(f.detail ?? '')).length,
    changedRecords: changed,
    writesAccepted: count('write-accepted'),
  };
  client.close();
  log('  closing the server');
  await server.close();
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUnhandled);
  report.seconds = Math.round((performance.now() - started) / 1000);
  return report;
}
