/**
 * What a Sidecar (sidecar.ts) says to its child and how it reads the answers (by default one JSON
 * object a line), and the texts of its failures.
 */
export type SidecarAnswer = { ok: true; value: unknown } | { ok: false; kind: string; message: string };

/** How requests are written (one line each, without its newline) and the child's lines read. */
export interface SidecarProtocol<Req, Ans> {
  encode(request: Req, id: string): string;
  /** Before the ready line, only `ready` counts (other lines are noise); after it, `id` and `answer`. */
  decode(line: string): { ready?: boolean; version?: string; id?: string; answer?: Ans };
}

/** The texts of the failures (defaults: sidecarMessages(name)); `stderr` is the child's, trimmed. */
export interface SidecarMessages {
  busy: string;
  timeout: (ms: number) => string;
  /** The child ended under a call; `how`: `exit code 3`, `killed by SIGKILL`. */
  died: (how: string, stderr: string) => string;
  outOfStep: (expectedId: string | undefined, line: string) => string;
  /** Why a start failed (the message is `<name> could not start: <this>`). */
  startEnded: (file: string, code: number | null, signal: string | null, stderr: string) => string;
  startError: (file: string, e: Error) => string;
  readyTimeout: (ms: number) => string;
}

export const sidecarMessages = (name: string): SidecarMessages => ({
  busy: `too many calls waiting for ${name}`,
  timeout: (ms) => `${name} did not answer within ${ms} ms (it was restarted)`,
  died: (how, stderr) => `${name} ended (${how})${stderr ? `: ${stderr.slice(-300)}` : ''}; it is restarted for the next call`,
  outOfStep: (_, line) => `${name} answered out of step (got ${JSON.stringify(line.slice(0, 80))}); it was restarted`,
  startEnded: (file, code, signal, stderr) => `${file} ended (${signal ?? `exit code ${code}`}): ${stderr.slice(-500)}`,
  startError: (file, e) => `could not run ${file}: ${e.message}`,
  readyTimeout: (ms) => `no ready line within ${ms} ms`,
});

type JsonLine = { id?: string; ready?: boolean; version?: string; ok?: boolean; value?: unknown; kind?: string; message?: string };
export const JSON_LINES: SidecarProtocol<Record<string, unknown>, SidecarAnswer> = {
  encode: (request, id) => JSON.stringify({ ...request, id }),
  decode(line) {
    let msg: JsonLine;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = {};
    }
    const answer: SidecarAnswer = msg.ok ? { ok: true, value: msg.value ?? null } : { ok: false, kind: msg.kind ?? 'error', message: msg.message ?? '' };
    return { ready: msg.ready, version: msg.version, id: msg.id, answer };
  },
};
