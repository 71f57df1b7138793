/**
 * Checks that cannot run here are tap skips with their reason, never passes (a `t.pass` or an
 * early `return` would be counted as a pass). `t.plan(0, reason)` turns the test it is called in,
 * or the whole file at top level, into one skip. .ci/run fails under CI=true on any skip except
 * those whose reason starts with MONGO_VARIANT (no MongoDB server can be installed on the
 * project's machines), which it lists by name.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const MONGO_VARIANT = 'MongoDB variant: MONGO_URL is not set';
export const NO_REDIS = 'no Redis (REDIS_URL, 127.0.0.1:6379, or a redis-server binary)';
export const NO_REDIS_SERVER = 'no redis-server binary on PATH (Debian redis-server): this fault test needs a Redis of its own';

type Plannable = { plan: (n: number, comment?: string) => void };

/** Marks the test (or, at top level, the file) as skipped, with its reason. */
export function skipAll(t: Plannable, reason: string): void {
  t.plan(0, reason);
}

/** Options of a test that runs against the given store kind: the mongo one is skipped without MONGO_URL ('embedded' and 'mingo' always run). */
export function storeVariant(kind: 'embedded' | 'mingo' | 'mongo'): { skip: string | false } {
  return { skip: kind === 'mongo' && !process.env.MONGO_URL ? MONGO_VARIANT : false };
}

/** The path of an executable, as the shell would find it on PATH (absolute paths are checked as they are). */
export function onPath(command: string): string | undefined {
  const candidates = command.includes('/') ? [command] : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, command));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // next
    }
  }
  return undefined;
}

/** Chromium for the browser tests: CHROMIUM_PATH if set, else `chromium` (or `chromium-browser`) on PATH. */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return onPath(process.env.CHROMIUM_PATH);
  return onPath('chromium') ?? onPath('chromium-browser');
}
