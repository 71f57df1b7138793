/**
 * What a composition root built, closed in reverse order of building, every step even when an
 * earlier one fails (n8n's worker shutdown does the same): a failing step is logged with its
 * name and the next one runs, so one broken connection never leaves the pool, the store or the
 * JVM running. Each step has a time bound; a step past it is reported and left behind.
 */
import type { Logger } from './log.ts';

export interface CloseStep {
  name: string;
  close: () => unknown | Promise<unknown>;
}

export class Resources {
  private readonly steps: CloseStep[] = [];
  private closing?: Promise<string[]>;

  constructor(private readonly log: Logger) {}

  /** Registers a resource's close step; returns the resource, so building reads `const x = r.add(...)`. */
  add<T>(name: string, resource: T, close: (r: T) => unknown | Promise<unknown>): T {
    this.steps.push({ name, close: () => close(resource) });
    return resource;
  }

  /** A close step with no resource of its own (a timer, a background task). */
  onClose(name: string, close: () => unknown | Promise<unknown>): void {
    this.steps.push({ name, close });
  }

  /** Closes everything, last built first; resolves with the names of the steps that failed. Idempotent. */
  closeAll(stepTimeoutMs = 30_000): Promise<string[]> {
    this.closing ??= (async () => {
      const failed: string[] = [];
      for (const step of [...this.steps].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        try {
          const late = new Promise<'late'>((resolve) => {
            timer = setTimeout(() => resolve('late'), stepTimeoutMs);
            timer.unref();
          });
          if ((await Promise.race([Promise.resolve().then(step.close), late])) === 'late') {
            failed.push(step.name);
            this.log.error({ step: step.name, timeout_ms: stepTimeoutMs }, 'shutdown: step did not finish in time; going on');
          }
        } catch (err) {
          failed.push(step.name);
          this.log.error({ step: step.name, err }, 'shutdown: step failed; going on');
        } finally {
          clearTimeout(timer);
        }
      }
      return failed;
    })();
    return this.closing;
  }
}
