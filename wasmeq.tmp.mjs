import initRDKit from '@rdkit/rdkit';
import fs from 'fs';
const rdkit = await initRDKit();
rdkit.disable_logging();
const smis = new Set();
for (const l of fs.readFileSync('/work/shared/peers/cm-proxy/paths-canonical-target.txt','utf8').trim().split('\n')) smis.add(new URL('http://x'+l).searchParams.get('smiles'));
for (const l of fs.readFileSync('../shared/data/molecule_properties_rdkit.csv','utf8').trim().split('\n').slice(1)) smis.add(l.split(',')[1]);
for (const l of fs.readFileSync('../shared/data/lotus_sample_1000.tsv','utf8').trim().split('\n').slice(1)) for (const f of l.split('\t')) if (/^[A-Za-z\[\]()=#@+\-\\\/0-9.%]+$/.test(f) && /[cC]/.test(f) && f.length>5) smis.add(f);
// extra tricky ones
for (const s of ['C[C@H](N)C(=O)O','[Na+].[Cl-]','c1ccccc1','C/C=C/C','[O-][n+]1ccccc1','C1=CC=CC=C1','OC1C=CC=CC1','[13CH4]','[2H]C','C[S@](=O)c1ccccc1','F/C=C/F','C1CC2CCC1C2','[nH]1cccc1','CN1C=NC2=C1C(=O)N(C(=O)N2C)C','C=1C=CC=CC1','c1cc2ccc3cccc4ccc(c1)c2c34','[Fe]','*C','[*:1]CC','C[N+](C)(C)C','O=[N+]([O-])c1ccccc1','CC(=O)[O-].[Na+]','C1CCCCC1','[C@@H]1(O)CCCC1','C[C@@H]1C[C@H](C)C[C@@H](C)C1','c1ccc2[nH]ccc2c1','B(O)(O)c1ccccc1','[Si](C)(C)(C)C','P(=O)(O)(O)O','S(=O)(=O)(O)O']) smis.add(s);
const H = /\[\d*H(?![a-z])/;
let n=0, d=0, withH=0;
const MM = JSON.stringify({radius:2,nBits:2048});
for (const s of smis) {
  if (H.test(s)) { withH++; continue; }
  let a, b;
  try { a = rdkit.get_mol(s); b = rdkit.get_mol(s, '{"removeHs":false}'); } catch(e) { console.log('err', s); continue; }
  if (!a || !a.is_valid()) { if (b && b.is_valid()) { console.log('validity differs', s); d++; } a?.delete(); b?.delete(); continue; }
  n++;
  const f = m => [m.get_smiles(), m.get_smiles('{"kekuleSmiles":true}'), m.get_inchi(), m.get_json(), m.get_descriptors(), m.get_morgan_fp(MM), m.get_pattern_fp(), m.get_molblock(), m.get_cxsmiles(), m.get_num_atoms(), m.get_smarts()];
  const fa = f(a), fb = f(b);
  for (let i=0;i<fa.length;i++) if (fa[i]!==fb[i]) { d++; console.log('diff', i, s); break; }
  a.delete(); b.delete();
}
console.log('molecules', smis.size, 'compared', n, 'with H atoms (skipped)', withH, 'diffs', d);
