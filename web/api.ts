/**
 * natprod's own API from the pages. The catalog token lives in sessionStorage (gone with the tab)
 * and travels only in the Authorization header, never in a URL.
 */
const TOKEN_KEY = 'natprod.token';
const USER_KEY = 'natprod.user';

export const token = () => sessionStorage.getItem(TOKEN_KEY);
export const userName = () => sessionStorage.getItem(USER_KEY);
export function signIn(t: string, user: string): void {
  sessionStorage.setItem(TOKEN_KEY, t);
  sessionStorage.setItem(USER_KEY, user);
}
export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The message of an error answer: FastAPI's `detail`, Laravel's `message` and `errors`. */
function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { detail?: unknown; message?: unknown; errors?: Record<string, unknown> };
    const errs = b.errors ? Object.values(b.errors).flat().map(String) : [];
    if (errs.length) return errs.join(' ');
    if (typeof b.detail === 'string') return b.detail;
    if (Array.isArray(b.detail)) return b.detail.map((d) => (d && typeof d === 'object' && 'msg' in d ? String((d as { msg: unknown }).msg) : String(d))).join(' ');
    if (typeof b.message === 'string') return b.message;
  }
  return typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`;
}

export interface Answer {
  status: number;
  type: string;
  headers: Headers;
  body: unknown; // JSON, text, or a Blob (images)
}

/** Calls the API; answers are parsed by type. Throws ApiError on 4xx/5xx. */
export async function call(path: string, init: { method?: string; json?: unknown; body?: BodyInit; auth?: boolean; signal?: AbortSignal } = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json, image/svg+xml, image/png, text/plain;q=0.9, */*;q=0.5' };
  const t = token();
  if (t && init.auth !== false) headers.authorization = `Bearer ${t}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(path, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, signal: init.signal });
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  let parsed: unknown;
  if (type === 'application/json' || type.endsWith('+json')) parsed = await res.json().catch(() => null);
  else if (type.startsWith('image/png') || type === 'application/octet-stream') parsed = await res.blob();
  else parsed = await res.text();
  if (!res.ok) throw new ApiError(res.status, messageOf(res.status, parsed));
  return { status: res.status, type, headers: res.headers, body: parsed };
}

/** JSON of a call. */
export async function json<T = any>(path: string, init?: Parameters<typeof call>[1]): Promise<T> {
  return (await call(path, init)).body as T;
}

/** Where a structure's 2D depiction is: natprod's own /depict/2D (SVG, drawn by RDKit). */
export const depictUrl = (smiles: string, w = 300, h = 200) => `/depict/2D?smiles=${encodeURIComponent(smiles)}&width=${w}&height=${h}`;
