/**
 * Users and Sanctum-style personal access tokens. A token is `<id>|<secret>`; only the SHA-256 hex
 * of the secret is stored. Passwords are scrypt hashes `scrypt$<salt b64>$<hash b64>`.
 */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { CatalogStore } from '../store/types.ts';
import { ROLES, type CatalogUser, type Role } from '../schema/types.ts';

const scrypt = promisify(scryptCb) as (p: string, s: Buffer, n: number) => Promise<Buffer>;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: unknown): Promise<boolean> {
  if (typeof stored !== 'string') return false;
  const [kind, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64');
  const got = await scrypt(password, Buffer.from(salt, 'base64'), want.length);
  return timingSafeEqual(want, got);
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Mints a token for a user; returns the plain `<id>|<secret>` (shown once, never stored). */
export async function issueToken(store: CatalogStore, userId: number, name = 'auth_token'): Promise<string> {
  const bytes = randomBytes(40);
  const secret = Array.from(bytes, (b) => ALNUM[b % ALNUM.length]).join('');
  const doc = await store.insert('tokens', { user_id: userId, name, token_hash: sha256(secret), created_at: new Date().toISOString(), last_used_at: null });
  return `${doc.id}|${secret}`;
}

/** The user behind a bearer token, or undefined. */
export async function authenticate(store: CatalogStore, header: string | undefined): Promise<CatalogUser | undefined> {
  const m = /^Bearer\s+(\d+)\|(\S+)$/.exec(header ?? '');
  if (!m) return undefined;
  const tok = await store.findOne('tokens', { id: Number(m[1]) });
  if (!tok || typeof tok.token_hash !== 'string') return undefined;
  const a = Buffer.from(tok.token_hash, 'hex');
  const b = Buffer.from(sha256(m[2]), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
  const user = await store.findOne('users', { id: tok.user_id as number });
  if (!user || !ROLES.includes(user.role as Role)) return undefined;
  return { id: user.id, email: user.email as string, role: user.role as Role, tokenId: tok.id };
}

export async function revokeToken(store: CatalogStore, tokenId: number): Promise<void> {
  await store.remove('tokens', [tokenId]);
}

/** Creates the user if needed (role updated when given), without a password unless one is given. */
export async function ensureUser(store: CatalogStore, email: string, role: Role, password?: string) {
  const set: Record<string, unknown> = { role };
  if (password) set.password_hash = await hashPassword(password);
  const { doc } = await store.upsert('users', 'email', email.toLowerCase(), set);
  return doc;
}

export async function login(store: CatalogStore, email: unknown, password: unknown): Promise<string | undefined> {
  if (typeof email !== 'string' || typeof password !== 'string') return undefined;
  const user = await store.findOne('users', { email: email.toLowerCase() });
  if (!user || !(await verifyPassword(password, user.password_hash))) return undefined;
  return issueToken(store, user.id);
}
