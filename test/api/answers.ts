/**
 * An answer checked against its operation's declared answer schema (`OpDef.answer`, the shape
 * the OpenAPI document gives): each violation as `$.path: message`, as test/api/expected.ts
 * writes paths. Used by test/api/chem-http.test.ts on every example's answer, and by
 * test/unit/op-answers.test.ts, which shows that a wrong answer is caught.
 */
import { mediaTypesOf, type OpDef } from '../../shared/ops/types.ts';

/** Whether `op` can answer JSON (every such operation must declare `answer`). */
export const answersJson = (op: OpDef): boolean => mediaTypesOf(op).includes('application/json');

/** `$.a[0].b` for the path `['a', 0, 'b']`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return '$' + path.map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_]\w*$/.test(String(k)) ? `.${String(k)}` : `[${JSON.stringify(String(k))}]`)).join('');
}

/** The violations of `value` against `op.answer` ([] when it fits); an operation without a schema is one. */
export function answerViolations(op: OpDef, value: unknown): string[] {
  if (!op.answer) return [`${op.name} declares no answer schema`];
  const r = op.answer.safeParse(value);
  if (r.success) return [];
  return r.error.issues.flatMap((i) => describe(i, []));
}

type Issue = { code: string; path: PropertyKey[]; message: string; errors?: Issue[][] };

/** A zod issue as text; a union's issue names why each of its variants failed. */
function describe(issue: Issue, prefix: PropertyKey[]): string[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    return issue.errors.flatMap((variant, n) => variant.flatMap((v) => describe(v, path).map((d) => `(variant ${n + 1}) ${d}`)));
  }
  return [`${jsonPath(path)}: ${issue.message}`];
}
