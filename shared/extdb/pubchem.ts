/**
 * SMILES lookup in a PubChem PUG-REST compatible compound database (docs/spec/chem-service.md §2.1 (15)). Requests
 * the `SMILES` property (PubChem renamed `IsomericSMILES` to `SMILES` in 2025) and reads
 * `IsomericSMILES` when an older server answers with that. A not-found answer (HTTP 4xx other
 * than 429, an empty CID list, a malformed body) is `null`; an unreachable server is an
 * `AppError(503)` from fetchWithRetry, never a hang.
 *
 * Answers (found and not found, never errors) are kept in an LRU of 128 entries per thread,
 * keyed by server and identifier, as the original service's `lru_cache(128)`.
 */
import { fetchWithRetry, type HttpPolicy } from './http.ts';
import { routeOf } from './identifier.ts';
import { Lru } from './lru.ts';

export interface LookupOptions {
  /** PUG-REST base, e.g. `https://pubchem.ncbi.nlm.nih.gov/rest/pug`. */
  baseUrl: string;
  timeoutMs: number;
  retries?: number;
  backoffMs?: number;
  signal?: AbortSignal;
}

const cache = new Lru<string, string | null>(128);

/** Drop the cached answers (tests, or after changing EXTDB_URL in a running thread). */
export function clearLookupCache(): void {
  cache.clear();
}

interface PropertyTable {
  PropertyTable?: { Properties?: { SMILES?: string; IsomericSMILES?: string }[] };
}

class Client {
  constructor(private readonly base: string, private readonly policy: HttpPolicy) {}

  private async request(path: string, init: RequestInit = {}): Promise<Response> {
    return fetchWithRetry(`${this.base}${path}`, init, this.policy);
  }

  async smilesOf(path: string): Promise<string | null> {
    const res = await this.request(path);
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    try {
      const body = (await res.json()) as PropertyTable;
      const p = body.PropertyTable?.Properties?.[0];
      return p?.SMILES ?? p?.IsomericSMILES ?? null;
    } catch {
      return null;
    }
  }

  /** First CID of a `.../cids/txt` answer, or null. */
  async firstCid(path: string, form?: Record<string, string>): Promise<string | null> {
    const init: RequestInit = form
      ? { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
      : {};
    const res = await this.request(path, init);
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const first = (await res.text()).split(/\s+/).find((t) => t !== '');
    return first && /^\d+$/.test(first) && first !== '0' ? first : null;
  }

  smilesOfCid(cid: string): Promise<string | null> {
    return this.smilesOf(`/compound/cid/${cid}/property/SMILES/JSON`);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

async function resolve(c: Client, identifier: string): Promise<string | null> {
  const route = routeOf(identifier);
  const viaCid = async (cid: string | null) => (cid ? c.smilesOfCid(cid) : null);
  switch (route.kind) {
    case 'cid': return c.smilesOfCid(route.cid);
    case 'inchi': return viaCid(await c.firstCid('/compound/inchi/cids/txt', { inchi: route.inchi }));
    case 'inchikey': return c.smilesOf(`/compound/inchikey/${route.key}/property/SMILES/JSON`);
    case 'formula': return viaCid(await c.firstCid(`/compound/fastformula/${route.formula}/cids/txt`));
    case 'smiles': return viaCid(await c.firstCid('/compound/smiles/cids/txt', { smiles: route.smiles }));
    // A lone UTF-16 surrogate cannot be written in a URL (encodeURIComponent throws), nor be a name.
    case 'name': return LONE_SURROGATE.test(route.name) ? null : c.smilesOf(`/compound/name/${encodeURIComponent(route.name)}/property/SMILES/JSON`);
  }
}

/** SMILES of the compound the identifier names, or null when the database does not know it. */
export async function lookupSmiles(identifier: string, opts: LookupOptions): Promise<string | null> {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const key = `${base}\n${identifier.trim()}`;
  if (cache.has(key)) return cache.get(key)!;
  const client = new Client(base, {
    service: `External compound database ${base}`,
    timeoutMs: opts.timeoutMs,
    retries: opts.retries ?? 3,
    backoffMs: opts.backoffMs ?? 500,
    signal: opts.signal,
  });
  const smiles = await resolve(client, identifier);
  cache.set(key, smiles);
  return smiles;
}
