/** What a fuzz run reports, and the report as text. */
import type { Mode } from '../helpers/app.ts';
import type { StoreDiff } from './server.ts';

export type FindingKind = '5xx' | 'mcp-5xx' | 'job-5xx' | 'job-failed' | 'dropped' | 'no-answer' | 'write-accepted' | 'thread-crash' | 'process-crash' | 'store-changed' | 'health';

export interface Finding {
  kind: FindingKind;
  index?: number;
  target?: string;
  label?: string;
  status?: number;
  detail?: string;
}

/**
 * Memory of the process under fuzz (server and client share it), in MB, after a full collection
 * of the main heap; WASM per chemistry thread in MiB.
 */
export interface MemorySample {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  wasmMb: number[];
}

export interface Report {
  seed: number;
  /** Cases run before the measured ones (included in `cases`). */
  warmup: number;
  mode: Mode;
  cases: number;
  requests: number;
  perTarget: Record<string, number>;
  statuses: Record<string, number>;
  statusesPerTarget: Record<string, Record<string, number>>;
  mcpToolStatuses: Record<string, number>;
  jobs: Record<string, number>;
  retriedOnFreshSocket: number;
  /**
   * 504s: a call or job that outlived its time limit (JOB_TIMEOUT_MS, TASK_TIMEOUT_MS). Listed,
   * not counted as findings: whether one happens depends on the machine's load, and the fuzzer
   * asserts nothing about time.
   */
  timeouts: { index: number; label: string; detail: string }[];
  /** Seconds of answers per target and label (for tuning the mix; nothing is asserted about time). */
  busy: Record<string, number>;
  slowest: { index: number; label: string; ms: number; status: string }[];
  /** Cases the generators failed to build (a bug of the fuzzer; the run fails). */
  generatorErrors: string[];
  unsendable: number;
  findings: Finding[];
  counts: { fiveXX: number; dropped: number; noAnswer: number; crashes: number; changedRecords: number; writesAccepted: number; writes: number };
  /** `retired`: threads replaced because their RDKit memory outgrew its bound (among the exits). */
  threads: { exits: number; created: number; retired: number; errors: string[]; idsAtStart: number[]; idsAtEnd: number[] };
  /** RSS after the warm-up and at the end of the measured cases. */
  rss: { beforeMb: number; afterMb: number };
  /** `peakRssMb`: the highest RSS sampled during the run, no collection forced. */
  memory: { start: MemorySample; afterWarmup: MemorySample; end: MemorySample; peakRssMb: number };
  store: { before: string; after: string; counts: Record<string, number>; diff: StoreDiff };
  health: number | string;
  seconds: number;
}

export function formatReport(r: Report): string {
  const lines: string[] = [];
  const table = (m: Record<string, number>) => Object.entries(m).sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}: ${v}`).join(', ');
  lines.push('', `natprod fuzz: seed ${r.seed}, ${r.mode} mode, ${r.cases} cases${r.warmup ? ` (${r.warmup} of them warm-up)` : ''} (${r.requests} requests) in ${r.seconds} s`);
  lines.push('cases per target:');
  for (const [t, n] of Object.entries(r.perTarget).sort()) lines.push(`  ${t.padEnd(26)} ${String(n).padStart(6)}   statuses ${table(r.statusesPerTarget[t] ?? {})}`);
  lines.push(`statuses (all requests): ${table(r.statuses)}`);
  lines.push(`MCP tool results by status: ${table(r.mcpToolStatuses)}`);
  lines.push(`followed jobs: ${table(r.jobs)}`);
  lines.push(`5xx: ${r.counts.fiveXX}   closed connections (no answer before the close): ${r.counts.dropped} (${r.retriedOnFreshSocket} of them on a reused keep-alive socket)   no answer: ${r.counts.noAnswer}   crashes: ${r.counts.crashes}   changed records: ${r.counts.changedRecords}   writes accepted: ${r.counts.writesAccepted} of ${r.counts.writes}`);
  lines.push(`time limits (504, not counted as findings): ${r.timeouts.length}${r.timeouts.length ? ` — ${r.timeouts.slice(0, 5).map((x) => `#${x.index} ${x.label}`).join('; ')}` : ''}`);
  lines.push(`threads: ${r.threads.exits} exited and ${r.threads.created} started during the run (replacements after WASM faults, time limits, or RDKit memory over its bound: ${r.threads.retired ?? 0}), ${r.threads.errors.length} thread errors; ids ${r.threads.idsAtStart.join(',')} → ${r.threads.idsAtEnd.join(',')}`);
  lines.push(`catalog: ${JSON.stringify(r.store.counts)} ${r.store.before.slice(0, 16)} → ${r.store.after.slice(0, 16)} (${r.store.before === r.store.after ? 'unchanged' : 'CHANGED'})`);
  const mem = (m: MemorySample) => `${m.rssMb} MB (heap ${m.heapUsedMb}, external ${m.externalMb}, array buffers ${m.arrayBuffersMb}; WASM per thread ${m.wasmMb.join('/')} MiB)`;
  const growth = r.rss.beforeMb ? ((r.rss.afterMb - r.rss.beforeMb) / r.rss.beforeMb) * 100 : 0;
  lines.push(`rss: at start ${mem(r.memory.start)}${r.warmup ? `; after the warm-up ${mem(r.memory.afterWarmup)}` : ''}; at the end ${mem(r.memory.end)}; peak ${r.memory.peakRssMb} MB`);
  lines.push(`rss over the measured cases: ${r.rss.beforeMb} MB → ${r.rss.afterMb} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %)   /health at the end: ${r.health}`);
  if (process.env.FUZZ_TIMING) {
    lines.push('busiest labels (seconds of answers): ' + Object.entries(r.busy).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('; '));
    lines.push('slowest cases: ' + r.slowest.map((x) => `#${x.index} ${x.label} ${x.ms} ms ${x.status}`).join('; '));
  }
  if (r.generatorErrors.length) lines.push(`GENERATOR ERRORS (${r.generatorErrors.length}): ${r.generatorErrors.slice(0, 3).join('\n')}`);
  if (r.unsendable) lines.push(`requests the client could not send: ${r.unsendable}`);
  if (r.findings.length) {
    lines.push(`FINDINGS (${r.findings.length}); replay one with FUZZ_SEED=${r.seed} FUZZ_ONLY=<case>:`);
    const groups = new Map<string, { f: Finding; n: number; cases: number[] }>();
    for (const f of r.findings) {
      const k = `${f.kind}|${f.target}|${f.status}|${(f.detail ?? '').replace(/\d+/g, 'N').slice(0, 120)}`;
      const g = groups.get(k) ?? { f, n: 0, cases: [] };
      g.n++;
      if (f.index !== undefined && g.cases.length < 5) g.cases.push(f.index);
      groups.set(k, g);
    }
    for (const { f, n, cases } of groups.values()) lines.push(`  ${n} × ${f.kind} ${f.target ?? ''} ${f.status ?? ''} [${f.label ?? ''}] cases ${cases.join(',')}: ${(f.detail ?? '').slice(0, 300)}`);
  } else lines.push('no findings');
  return lines.join('\n');
}
