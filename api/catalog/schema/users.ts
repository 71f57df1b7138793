/** Catalog users (COCONUT routes `users` too). The password is hashed on write and never output. */
import { defineSchema } from './define.ts';

export const usersSchema = defineSchema({
  name: 'users',
  collection: 'users',
  className: 'UserResource',
  doc: 'A catalog account (admins only); its tokens live in `tokens`.',
  adminOnly: true,
  fields: {
    id: { type: 'int', doc: 'Numeric key.' },
    email: { type: 'string', index: { embedded: 'index', mongo: 'unique' }, rule: 'required_on_create|email', doc: 'Login e-mail, stored lower-cased, unique.' },
    name: { type: 'string', doc: 'Display name.' },
    role: { type: 'role', doc: 'reader, curator or admin.' },
    password: { type: 'string', visibility: 'writeOnly', rule: 'nullable|string|min:8', doc: 'Write-only; stored as an scrypt hash (`password_hash`).' },
  },
});
