/**
 * Self-registration as COCONUT offers it (`POST /api/auth/register`, its RegisterController):
 * the same fields, rules and Laravel messages, a `reader` account and a token at once. Switched
 * on by CATALOG_REGISTRATION (the plugin answers 403 while it is off).
 *
 * Deliberate differences from COCONUT: `password_confirmation` must equal `password` (COCONUT
 * requires both but never compares them); `username`, `affiliation` and `orcid_id` are bounded
 * strings (COCONUT leaves `orcid_id` unchecked); e-mails are unique case-insensitively (stored
 * lower-cased, as `login` compares them); there is no e-mail verification, so the token works
 * at once, with the reader role.
 */
import { hashPassword, issueToken } from './auth.ts';
import type { CatalogStore } from '../store/types.ts';
import { Errors } from '../schema/types.ts';
import { EMAIL } from './users.ts';

type Rec = Record<string, unknown>;

export interface Rule {
  field: string;
  required: boolean;
  max?: number;
  min?: number;
  email?: boolean;
}

/** COCONUT's rules, in its order (the order of the errors), plus the optional `orcid_id`. */
export const REGISTER_RULES: Rule[] = [
  { field: 'first_name', required: true, max: 255 },
  { field: 'last_name', required: true, max: 255 },
  { field: 'username', required: true, max: 255 },
  { field: 'email', required: true, max: 255, email: true },
  { field: 'affiliation', required: true, max: 255 },
  { field: 'password', required: true, min: 8 },
  { field: 'password_confirmation', required: true, min: 8 },
  { field: 'orcid_id', required: false, max: 255 },
];

/** Laravel names a field in its messages with spaces for underscores (`first name`). */
const label = (field: string) => field.replace(/_/g, ' ');

export const REGISTERED_MESSAGE = 'Successful created user.';

/** Checks a registration body; the values of the valid fields, or a 422 with every problem. */
async function validate(body: unknown, store: CatalogStore): Promise<Record<string, string | null>> {
  const b: Rec = body && typeof body === 'object' && !Array.isArray(body) ? (body as Rec) : {};
  const e = new Errors();
  const out: Record<string, string | null> = {};
  for (const r of REGISTER_RULES) {
    const v = b[r.field];
    const name = label(r.field);
    // `required` fails on a missing, null or blank value and stops the field's other rules.
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) {
      if (r.required) e.add(r.field, `The ${name} field is required.`);
      else out[r.field] = null;
      continue;
    }
    if (typeof v !== 'string') {
      e.add(r.field, `The ${name} field must be a string.`);
      continue;
    }
    if (r.email && !EMAIL.test(v)) e.add(r.field, `The ${name} field must be a valid email address.`);
    if (r.max !== undefined && v.length > r.max) e.add(r.field, `The ${name} field must not be greater than ${r.max} characters.`);
    if (r.min !== undefined && v.length < r.min) e.add(r.field, `The ${name} field must be at least ${r.min} characters.`);
    // Laravel's `confirmed` (COCONUT does not compare the two).
    if (r.field === 'password' && v !== b.password_confirmation) e.add(r.field, `The ${name} field confirmation does not match.`);
    out[r.field] = v;
  }
  if (typeof out.email === 'string' && !e.map.email) {
    out.email = out.email.toLowerCase();
    if (await store.findOne('users', { email: out.email })) e.add('email', 'The email has already been taken.');
  }
  e.throwIfAny();
  return out;
}

const taken = () => {
  const e = new Errors();
  e.add('email', 'The email has already been taken.');
  return e;
};

/**
 * Creates a reader account and mints its first token. COCONUT's 201 body (`success`, `message`,
 * `token`) plus the login shape (`access_token`, `token_type`) with the same token.
 */
export async function register(store: CatalogStore, body: unknown) {
  const v = await validate(body, store);
  const passwordHash = await hashPassword(v.password!);
  const token = await store.exclusive(async () => {
    // Checked again under the lock: a concurrent registration may have taken the address.
    if (await store.findOne('users', { email: v.email })) taken().throwIfAny();
    let user;
    try {
      user = await store.insert('users', {
        email: v.email,
        name: `${v.first_name} ${v.last_name}`,
        role: 'reader',
        password_hash: passwordHash,
        first_name: v.first_name,
        last_name: v.last_name,
        username: v.username,
        affiliation: v.affiliation,
        orcid_id: v.orcid_id,
        created_at: new Date().toISOString(),
      });
    } catch (err) {
      // MongoDB's unique index on users.email: another api replica registered it first.
      if ((err as { code?: number }).code === 11000) taken().throwIfAny();
      throw err;
    }
    return issueToken(store, user.id);
  });
  return { success: true, message: REGISTERED_MESSAGE, token, access_token: token, token_type: 'Bearer' };
}
