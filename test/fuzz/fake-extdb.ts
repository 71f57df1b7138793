/**
 * A hostile stand-in for the external compound database (PUG-REST) that answers at once: no run
 * waits on the network, and what comes back is fuzzed too. The answer to a request is chosen by a
 * hash of its path and form, so it is the same whenever the request is the same: not found, a
 * SMILES (valid, unreadable, huge or empty), JSON of the wrong shape, text that is no JSON, a
 * CID list of junk, or a connection closed without an answer (which the client retries and, in
 * the end, answers 503, the one 5xx allowed for an external service).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeExtdb {
  url: string;
  requests: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.length < 100_000 ? c.toString('utf8') : ''));
    req.on('end', () => resolve(s));
  });
}

const SMILES = ['CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'CCO', 'C1CC(', '', ' ', 'C'.repeat(500), 'c1ccccc1'.repeat(100), 'InChI=1S/CH4/h1H4', '[Xx]', 'C'.repeat(100_001)];

export async function startFakeExtdb(): Promise<FakeExtdb> {
  const state = { requests: 0 };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    state.requests++;
    const form = req.method === 'POST' ? await readBody(req) : '';
    const h = createHash('sha256').update(`${req.url}\n${form}`).digest();
    const pick = h[0] % 20;
    const send = (status: number, type: string, body: string) => {
      res.statusCode = status;
      res.setHeader('content-type', type);
      res.end(body);
    };
    if ((req.url ?? '').includes('/cids/txt')) {
      if (pick < 8) return send(404, 'application/json', '{"Fault":{"Code":"PUGREST.NotFound"}}');
      return send(200, 'text/plain', ['2519\n', '0\n', '\n', 'abc\n', '-1\n', '99999999999999999999\n', '2519 702 x\n', '1e5\n', '../../\n'][h[1] % 9]);
    }
    if (pick < 8) return send(404, 'application/json', '{"Fault":{"Code":"PUGREST.NotFound","Message":"No CID found"}}');
    if (pick < 12) return send(200, 'application/json', JSON.stringify({ PropertyTable: { Properties: [{ CID: 1, SMILES: SMILES[h[1] % SMILES.length] }] } }));
    if (pick < 14) return send(200, 'application/json', ['{}', '[]', 'null', '{"PropertyTable":null}', '{"PropertyTable":{"Properties":[]}}', '{"PropertyTable":{"Properties":[{"SMILES":5}]}}', '{"PropertyTable":{"Properties":[{"IsomericSMILES":["C"]}]}}'][h[1] % 7]);
    if (pick < 16) return send(200, 'application/json', ['{', 'not json', '\u0000', '<html>busy</html>'][h[1] % 4]);
    if (pick < 17) return send(400, 'text/plain', 'Bad request');
    if (pick < 18) return send(200, 'application/json', '');
    // An answer cut off: the client sees a network error, retries, and ends with 503.
    res.socket?.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rest/pug`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
