/**
 * Answers the original service documents to the letter (docs/spec/chem-service.md and its own
 * tests at 01e0f60, tests/test_chem.py), where the text of the answer is what clients compare: a
 * Tanimoto value is a Python float (`1.0`, not `1`), and an unreadable SMILES is "Error reading
 * smiles, check again: <value>". The root redirect and /latest/docs: test/api/infra.test.ts.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { floatJson } from '../../api/chem/float-json.ts';
import { build } from '../helpers/app.ts';
import { noCdk } from '../toolkits/fixtures.ts';

const { app } = (await build(t, 'inline'))!;
const ORIGINAL = "the original's tests/test_chem.py (01e0f60)";

t.test('bitsimilarity of two identical molecules: the body is the float 1.0', async (t) => {
  // test_successful_tanimoto_similarity: ("CC,CC", "rdkit", "ECFP", 2048, 2, "1.0", 200) and the cdk row (radius 4).
  const cases = [{ toolkit: 'rdkit', radius: '2' }, ...(noCdk ? [] : [{ toolkit: 'cdk', radius: '4' }])];
  if (noCdk) t.comment(`toolkit=cdk not checked: ${noCdk}`);
  for (const c of cases) {
    const res = await app.inject({ url: '/latest/chem/bitsimilarity', query: { smiles: 'CC,CC', fingerprinter: 'ECFP', nBits: '2048', ...c } });
    t.equal(res.statusCode, 200, c.toolkit);
    t.equal(res.headers['content-type'], 'application/json', `${c.toolkit}: JSON`);
    t.equal(res.body, '1.0', `${c.toolkit}: "1.0", as ${ORIGINAL}`);
  }
  // A value that is not integral is written as before: CCO/CCN share 1 of 3 ECFP2 bits (native RDKit).
  const third = await app.inject({ url: '/chem/bitsimilarity', query: { smiles: 'CCO,CCN' } });
  t.equal(third.body, '0.3333333333333333');
});

t.test('the MCP tool still answers the number', async (t) => {
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client({ name: 'natprod-original-answers', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  t.teardown(() => client.close());
  const res = await client.callTool({ name: 'generate_bitsimilarity_similarity', arguments: { smiles: 'CC,CC' } });
  t.notOk(res.isError);
  t.same(res.structuredContent, { result: 1 }, 'structured content: the JSON number 1');
  t.equal(JSON.parse((res.content as { text: string }[])[0]!.text), 1, 'text content parses to 1');
});

t.test('an unreadable SMILES names itself in the original words', async (t) => {
  // test_get_functional_groups_endpoint_invalid_input; the text: spec §1.8.1 and §2.1 (13).
  const res = await app.inject({ url: '/latest/chem/fragmentfunctionalgroup', query: { smiles: 'invalid_smiles' } });
  t.equal(res.statusCode, 422);
  t.match(res.json().detail, /Error reading smiles/, ORIGINAL);
  t.equal(res.json().detail, 'Error reading smiles, check again: invalid_smiles', 'spec §1.8.2');
});

t.test('floatJson: integral numbers keep .0, everything else as JSON.stringify', async (t) => {
  t.equal(floatJson(1), '1.0');
  t.equal(floatJson(0), '0.0');
  t.equal(floatJson(0.25), '0.25');
  t.equal(floatJson([[1, 0.5], [0.5, 1]]), '[[1.0,0.5],[0.5,1.0]]');
  t.equal(floatJson({ a: 2, b: 'x', c: null, d: undefined }), '{"a":2.0,"b":"x","c":null}');
  t.equal(floatJson(null), 'null');
  t.equal(floatJson(1e21), '1e+21', 'beyond the integral range: as JSON.stringify');
});
