/**
 * One long-lived `psql` session fed statements on stdin (the project has no PostgreSQL driver
 * and the benchmark installs none). Each `query()` writes the SQL and two markers (`\echo` on
 * stdout, `\warn` on stderr) and reads up to them: the rows (unaligned, tab-separated, tuples
 * only), psql's `\timing` of each statement (the client-side time of libpq's round trip: sending
 * the query, the server's planning and execution, receiving every row; not psql's printing) and
 * any error. Statements run one at a time, in order.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface PsqlConnection {
  bin: string;
  host: string;
  port: number;
  db: string;
  user?: string;
}

export interface PsqlResult {
  rows: string[][];
  /** Sum of psql's `Time:` lines (one per statement), ms. */
  ms: number;
  /** Wall time seen here, from writing the SQL to reading the marker, ms. */
  wallMs: number;
}

/** A SQL string literal. */
export const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

export class Psql {
  private child: ChildProcessWithoutNullStreams;
  private out = '';
  private err = '';
  private seq = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private wake: (() => void) | null = null;
  private exited: string | null = null;

  constructor(c: PsqlConnection) {
    this.child = spawn(c.bin, ['-X', '-q', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=0', '-h', c.host, '-p', String(c.port), '-U', c.user ?? 'postgres', '-d', c.db], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
    });
    this.child.stdout.setEncoding('utf8').on('data', (s: string) => ((this.out += s), this.wake?.()));
    this.child.stderr.setEncoding('utf8').on('data', (s: string) => ((this.err += s), this.wake?.()));
    this.child.on('exit', (code, signal) => ((this.exited = `psql exited (${code ?? signal})`), this.wake?.()));
    this.child.stdin.write('\\timing on\n');
  }

  /** Runs `sql` (one or more statements, `;`-terminated or not, or a psql meta-command line). */
  query(sql: string): Promise<PsqlResult> {
    const run = this.chain.then(() => this.send(sql));
    this.chain = run.catch(() => {});
    return run;
  }

  private async send(sql: string): Promise<PsqlResult> {
    const marker = `@@natprod-bench-${++this.seq}@@`;
    const text = sql.trim();
    const t0 = performance.now();
    this.child.stdin.write(`${text}${text.startsWith('\\') || text.endsWith(';') ? '' : ';'}\n\\echo ${marker}\n\\warn ${marker}\n`);
    const done = (s: string) => s.includes(`${marker}\n`);
    while (!(done(this.out) && done(this.err))) {
      if (this.exited) throw new Error(`${this.exited}: ${this.err.trim()}`);
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
    const wallMs = performance.now() - t0;
    const cut = (s: string) => {
      const i = s.indexOf(`${marker}\n`);
      return [s.slice(0, i), s.slice(i + marker.length + 1)];
    };
    const [out, restOut] = cut(this.out);
    const [err, restErr] = cut(this.err);
    this.out = restOut;
    this.err = restErr;
    if (err.trim()) throw new Error(`${err.trim()}\n  in: ${text.slice(0, 300)}`);
    const rows: string[][] = [];
    let ms = 0;
    for (const line of out.split('\n')) {
      const t = /^Time: ([\d.]+) ms/.exec(line);
      if (t) ms += Number(t[1]);
      else if (line !== '') rows.push(line.split('\t'));
    }
    return { rows, ms, wallMs };
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin.end('\\q\n');
    await gone;
  }
}
