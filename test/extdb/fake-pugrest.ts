/**
 * A small fake PUG-REST server on 127.0.0.1 for the lookup tests: answers the requests of
 * docs/spec/chem-service.md §2.1 (15) for caffeine (CID 2519) and ethanol (CID 702, answered with the pre-2025
 * `IsomericSMILES` key), 404 for unknown compounds, and misbehaving names: `flaky` (one 429,
 * then an answer), `broken` (always 500), `silent` (never answers). Every request is counted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CAFFEINE = 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C';
export const ETHANOL = 'CCO';
export const CAFFEINE_KEY = 'RYYVLZVUVIJVGH-UHFFFAOYSA-N';
export const CAFFEINE_INCHI = 'InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3';

export interface FakePugRest {
  base: string;
  /** `METHOD path [form]` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};
const text = (res: ServerResponse, body: string) => {
  res.setHeader('content-type', 'text/plain');
  res.end(body);
};
const props = (cid: number, smiles: string, key = 'SMILES') => ({ PropertyTable: { Properties: [{ CID: cid, [key]: smiles }] } });
const notFound = (res: ServerResponse) => json(res, { Fault: { Code: 'PUGREST.NotFound', Message: 'No CID found' } }, 404);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => resolve(s));
  });
}

export async function startFakePugRest(): Promise<FakePugRest> {
  const requests: string[] = [];
  let flaky = 0;
  const pending: ServerResponse[] = [];
  const server = createServer(async (req, res) => {
    const form = req.method === 'POST' ? await readBody(req) : '';
    const path = decodeURIComponent((req.url ?? '').replace(/^\/rest\/pug/, ''));
    requests.push(`${req.method} ${path}${form ? ` ${form}` : ''}`);
    const fields = new URLSearchParams(form);
    if (path === '/compound/cid/2519/property/SMILES/JSON') return json(res, props(2519, CAFFEINE));
    if (path === '/compound/cid/702/property/SMILES/JSON') return json(res, props(702, ETHANOL, 'IsomericSMILES'));
    if (path === '/compound/inchi/cids/txt' && fields.get('inchi') === CAFFEINE_INCHI) return text(res, '2519\n');
    if (path === `/compound/inchikey/${CAFFEINE_KEY}/property/SMILES/JSON`) return json(res, props(2519, CAFFEINE));
    if (path === '/compound/fastformula/C8H10N4O2/cids/txt') return text(res, '2519\n5429\n');
    if (path === '/compound/smiles/cids/txt' && fields.get('smiles') === 'CCO') return text(res, '702\n');
    if (path === '/compound/name/caffeine/property/SMILES/JSON' || path === '/compound/name/58-08-2/property/SMILES/JSON') {
      return json(res, props(2519, CAFFEINE));
    }
    if (path === '/compound/name/flaky/property/SMILES/JSON') {
      if (flaky++ === 0) {
        res.setHeader('retry-after', '0');
        return json(res, { Fault: { Code: 'PUGREST.ServerBusy' } }, 429);
      }
      return json(res, props(2519, CAFFEINE));
    }
    if (path === '/compound/name/broken/property/SMILES/JSON') return json(res, { Fault: { Code: 'PUGREST.ServerError' } }, 500);
    if (path === '/compound/name/silent/property/SMILES/JSON') {
      pending.push(res);
      return;
    }
    return notFound(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/rest/pug`,
    requests,
    close: () => new Promise<void>((r) => {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** A loopback URL on which nothing listens (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/rest/pug`;
}
