/**
 * Argument validation with the registry's zod schemas, answering FastAPI's 422 shape
 * `{"detail": [{type, loc, msg, input}]}` that clients of the original service already parse.
 */
import type { z } from 'zod';
import { AppError } from '../../shared/errors.ts';

export type ArgSource = 'query' | 'body' | 'path';

interface FastApiIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

const quoteList = (values: readonly unknown[]) => {
  const q = values.map((v) => `'${String(v)}'`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
};

function describe(issue: z.core.$ZodIssue, input: unknown): Omit<FastApiIssue, 'loc' | 'input'> {
  if (input === undefined && issue.code === 'invalid_type') return { type: 'missing', msg: 'Field required' };
  switch (issue.code) {
    case 'invalid_value':
      return { type: 'enum', msg: `Input should be ${quoteList(issue.values)}`, ctx: { expected: quoteList(issue.values) } };
    case 'invalid_type':
      if (issue.expected === 'boolean') return { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' };
      if (issue.expected === 'number' || issue.expected === 'int') return { type: 'number_parsing', msg: 'Input should be a valid number, unable to parse string as a number' };
      return { type: `${issue.expected}_type`, msg: `Input should be a valid ${issue.expected}` };
    case 'too_small':
      return issue.origin === 'string'
        ? { type: 'string_too_short', msg: `String should have at least ${issue.minimum} character${Number(issue.minimum) === 1 ? '' : 's'}` }
        : { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${issue.minimum}` };
    case 'too_big':
      return issue.origin === 'string'
        ? { type: 'string_too_long', msg: `String should have at most ${issue.maximum} characters` }
        : { type: 'less_than_equal', msg: `Input should be less than or equal to ${issue.maximum}` };
    default:
      return { type: 'value_error', msg: issue.message };
  }
}

/** Parse arguments or throw a 422 whose detail lists every problem with its location. */
export function parseArgs<S extends z.ZodType>(schema: S, raw: Record<string, unknown>, source: (key: string) => ArgSource): z.infer<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const detail: FastApiIssue[] = r.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const input = key ? raw[key] : raw;
    const clipped = typeof input === 'string' && input.length > 200 ? `${input.slice(0, 200)}…` : input;
    return { ...describe(issue, input), loc: [source(key), ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], input: clipped ?? null };
  });
  throw new AppError(422, detail as unknown as Record<string, unknown>[], 'invalid_input');
}
