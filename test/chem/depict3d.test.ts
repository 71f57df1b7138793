/**
 * The 3D viewer page: self-hosted viewer script, no external URL, the molblock (with H) embedded
 * as a script-safe string that reads back to exactly the generated molblock.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { generate3D } from '../../shared/chem/convert/conformer.ts';
import { scriptString, viewerPage, VIEWER_SCRIPT } from '../../shared/chem/depict/depict3d.ts';
import { depict3dTasks } from '../../shared/ops/depict3d.tasks.ts';
import { depict3dOps } from '../../shared/ops/depict3d.ts';
import { taskContext } from '../helpers/task.ts';

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);

/** The JavaScript string literal assigned to `molblock` in the page, decoded. */
function embedded(html: string): string {
  const m = /var molblock = ("(?:[^"\\]|\\.)*");/.exec(html);
  if (!m) throw new Error('no molblock in page');
  return JSON.parse(m[1]) as string;
}

t.test('page structure', async (t) => {
  const smiles = 'C[C@H](N)C(=O)O';
  const html = depict3dTasks.depict_3d_molecule_depict_3D_get({ smiles }, ctx) as string;
  t.match(html, /^<!DOCTYPE html>/);
  t.match(html, `<script src="${VIEWER_SCRIPT}"></script>`);
  t.equal(VIEWER_SCRIPT, '/static/3Dmol-min.js');
  t.ok(existsSync(new URL('../../node_modules/3dmol/build/3Dmol-min.js', import.meta.url)), 'the served script exists');
  t.notMatch(html, /https?:\/\//, 'no external URL');
  t.notMatch(html, /jquery/i);
  t.match(html, /\$3Dmol\.createViewer\(/);
  t.match(html, /addModel\(molblock, 'sdf'\)/);
  t.match(html, /stick/);
  const molblock = embedded(html);
  t.equal(molblock, generate3D(rdkit, smiles, { hydrogens: true }), 'the embedded molblock is the 3D structure');
  t.match(molblock, /V2000/);
  t.match(molblock, /^ .* H /m, 'hydrogens included');
  // exactly one opening and one closing tag for each of the two scripts
  t.equal(html.match(/<script/g)?.length, 2);
  t.equal(html.match(/<\/script>/g)?.length, 2);
});

t.test('embedding is safe in a <script> element', async (t) => {
  const hostile = 'x</script><script>alert(1)</script><!-- \u2028\u2029 & "q" \\ \n M  END';
  const s = scriptString(hostile);
  t.notMatch(s, /<|>|&|\u2028|\u2029/);
  t.equal(JSON.parse(s), hostile, 'reads back to the same text');
  const html = viewerPage(hostile, '</title><script>alert(2)</script>');
  t.equal(html.match(/<script/g)?.length, 2, 'no injected script element');
  t.equal(embedded(html), hostile);
  t.match(html, /<title>&lt;\/title&gt;&lt;script&gt;/);
});

t.test('registry entry and errors', async (t) => {
  const op = depict3dOps.find((o) => o.name === 'depict_3d_molecule_depict_3D_get')!;
  t.equal(op.output, 'text/html');
  t.equal(op.path, '/depict/3D');
  t.notOk('operation_id' in op.args.shape, 'no stray operation_id parameter');
  t.throws(() => depict3dTasks.depict_3d_molecule_depict_3D_get({ smiles: 'C1CC' }, ctx));
});
