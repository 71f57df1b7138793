/**
 * The rules of user records written through mutate (admins only, see policy.ts): an e-mail is
 * required on create, well-formed and unique (stored lower-cased, as `ensureUser` and `login`
 * compare it); a password has at least 8 characters and is stored as an scrypt hash only.
 */
import { hashPassword } from './auth.ts';
import type { CatalogStore } from '../store/types.ts';
import type { Errors } from '../schema/types.ts';

interface UserWrite {
  path: string;
  operation: string;
  key?: number;
  attributes: Record<string, unknown>;
}

export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export async function checkUserWrites(ops: UserWrite[], store: CatalogStore, e: Errors): Promise<void> {
  const seen = new Set<string>();
  for (const op of ops) {
    const k = `${op.path}.attributes`;
    const { email, password } = op.attributes;
    if (op.operation === 'create' && (email === undefined || email === null)) e.add(`${k}.email`, `The ${k}.email field is required.`);
    if (op.operation === 'update' && email === null) e.add(`${k}.email`, `The ${k}.email field is required.`);
    if (typeof email === 'string') {
      const lower = email.toLowerCase();
      op.attributes.email = lower;
      if (!EMAIL.test(lower)) e.add(`${k}.email`, `The ${k}.email field must be a valid email address.`);
      else {
        const other = await store.findOne('users', { email: lower });
        if ((other && other.id !== op.key) || seen.has(lower)) e.add(`${k}.email`, `The ${k}.email has already been taken.`);
        seen.add(lower);
      }
    }
    if (typeof password === 'string' && password.length < 8) {
      e.add(`${k}.password`, `The ${k}.password field must be at least 8 characters.`);
    }
  }
}

/** Replaces each plain `password` attribute with its hash (after validation, before writing). */
export async function hashUserPasswords(ops: UserWrite[]): Promise<void> {
  for (const op of ops) {
    const { password } = op.attributes;
    delete op.attributes.password;
    if (typeof password === 'string') op.attributes.password_hash = await hashPassword(password);
    else if (password === null) op.attributes.password_hash = null;
  }
}
