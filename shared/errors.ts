/**
 * One error class with an HTTP status. It crosses thread and process boundaries (Piscina,
 * BullMQ) as plain data: `toJSON()` on one side, `AppError.from()` on the other.
 */
export type ErrorDetail = string | Record<string, unknown>[] | Record<string, unknown>;

export interface SerializedAppError {
  status: number;
  detail: ErrorDetail;
  code?: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly detail: ErrorDetail;
  /** Machine-readable kind, e.g. `invalid_input`; bad input is never retried. */
  readonly code?: string;

  constructor(status: number, detail: ErrorDetail, code?: string) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = 'AppError';
    this.status = status;
    this.detail = detail;
    this.code = code;
  }

  toJSON(): SerializedAppError {
    return { status: this.status, detail: this.detail, ...(this.code ? { code: this.code } : {}) };
  }

  static from(value: unknown): AppError | undefined {
    if (value instanceof AppError) return value;
    if (value && typeof value === 'object' && 'status' in value && 'detail' in value) {
      const v = value as SerializedAppError;
      if (typeof v.status === 'number') return new AppError(v.status, v.detail, v.code);
    }
    return undefined;
  }

  /** A client error: the input itself is wrong, so retrying cannot help. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }

  /**
   * Worth another attempt of the job (BullMQ's retry): an infrastructure fault of ours, such as a
   * thread or process that died. Not bad input, a time limit or a cancellation, and not an
   * external service that stayed unreachable through its client's own retries (its 503 would only
   * come later, after as many more requests to that service).
   */
  get isRetryable(): boolean {
    return this.status >= 500 && this.code !== 'timeout' && this.code !== 'cancelled' && this.code !== UPSTREAM_UNAVAILABLE;
  }
}

/** Code of a 503 for an external service (PubChem, ClassyFire) that did not answer usefully. */
export const UPSTREAM_UNAVAILABLE = 'upstream_unavailable';

/**
 * 422 for a structure that cannot be read, in the original service's words: its parser's
 * exception names the parameter (`smiles`) and the value, "Error reading smiles, check again:
 * <value>" (docs/spec/chem-service.md §1.8.1).
 */
export function invalidStructure(input: string, what = 'smiles'): AppError {
  return new AppError(422, `Error reading ${what}, check again: ${input}`, 'invalid_input');
}
