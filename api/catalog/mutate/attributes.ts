/**
 * The attribute values of a mutate operation, checked against the field types of their resource
 * (docs/spec/catalog-api.md §2.6.2, Laravel's messages): read by mutate-parse.ts for every
 * operation and by the report checks (api/catalog/reports/reports.ts) for a report's
 * `suggested_changes`, which must be valid attributes of the reported resource.
 */
import { STATUSES, stored, type FieldType, type ResourceDef } from '../schema/resources.ts';
import { ROLES, type Errors } from '../schema/types.ts';
import { hasOperatorKeys } from '../search/index.ts';

type Rec = Record<string, unknown>;
const isObj = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

/** Largest JSON value a `json` field holds (its text). */
export const MAX_JSON_CHARS = 64 * 1024;

/**
 * A `json` field's value: an object, at most 64 KiB of JSON, no key holding `.` (nedb refuses it,
 * MongoDB reads it as a path) or starting with `$` (refused before: an operator).
 */
function checkJson(v: unknown, k: string, e: Errors): unknown {
  if (!isObj(v)) return e.add(k, `The ${k} field must be an object.`);
  if (JSON.stringify(v).length > MAX_JSON_CHARS) return e.add(k, `The ${k} field must not be greater than ${MAX_JSON_CHARS} characters of JSON.`);
  const dotted = (x: unknown): boolean => (Array.isArray(x) ? x.some(dotted) : isObj(x) && Object.entries(x).some(([kk, vv]) => kk.includes('.') || kk === '' || dotted(vv)));
  if (dotted(v)) return e.add(k, `The ${k} field must not have empty keys or keys holding a dot.`);
  return v;
}

function checkValue(t: FieldType, v: unknown, k: string, e: Errors, oneOf?: readonly string[]): unknown {
  if (v === null) return null;
  if (hasOperatorKeys(v)) return e.add(k, `The ${k} field must not contain operators.`);
  switch (t) {
    case 'int':
      return Number.isInteger(v) ? v : e.add(k, `The ${k} field must be an integer.`);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? v : e.add(k, `The ${k} field must be a number.`);
    case 'decimal':
      return typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) / 100 : e.add(k, `The ${k} field must be a number.`);
    case 'bool':
      return typeof v === 'boolean' ? v : e.add(k, `The ${k} field must be true or false.`);
    case 'status':
      return STATUSES.includes(v as never) ? v : e.add(k, `The selected ${k} is invalid.`);
    case 'role':
      return ROLES.includes(v as never) ? v : e.add(k, `The selected ${k} is invalid.`);
    case 'string[]':
      if (typeof v === 'string') return [v];
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : e.add(k, `The ${k} field must be a list of strings.`);
    case 'int[]':
      return Array.isArray(v) && v.every((x) => Number.isInteger(x)) ? [...new Set(v as number[])] : e.add(k, `The ${k} field must be a list of integers.`);
    case 'json':
      return checkJson(v, k, e);
    default:
      if (typeof v !== 'string') return e.add(k, `The ${k} field must be a string.`);
      return !oneOf || oneOf.includes(v) ? v : e.add(k, `The selected ${k} is invalid.`);
  }
}

/** Attribute map → stored field map, with type checks; `id` and server-written fields are refused. */
export function attributes(r: ResourceDef, raw: unknown, k: string, e: Errors): Rec {
  if (raw === undefined || (Array.isArray(raw) && !raw.length)) return {}; // PHP reads `{}` and `[]` alike
  if (!isObj(raw)) {
    e.add(k, `The ${k} field must be an array.`);
    return {};
  }
  const out: Rec = {};
  for (const [f, v] of Object.entries(raw)) {
    if (r.writeOnly && Object.hasOwn(r.writeOnly, f)) {
      out[f] = checkValue(r.writeOnly[f], v, `${k}.${f}`, e);
      continue;
    }
    if (f === 'id' || !Object.hasOwn(r.fields, f)) {
      e.add(k, `The ${f} key is not valid for the ${k} field.`);
      continue;
    }
    if (r.readOnly?.includes(f)) {
      e.add(`${k}.${f}`, `The ${k}.${f} field is prohibited.`);
      continue;
    }
    out[stored(r, f)] = checkValue(r.fields[f], v, `${k}.${f}`, e, r.schema.fields[f].oneOf);
  }
  return out;
}
