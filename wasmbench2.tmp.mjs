import initRDKit from '@rdkit/rdkit';
import fs from 'fs';
const rdkit = await initRDKit();
rdkit.disable_logging();
const lines = fs.readFileSync('/work/shared/peers/cm-proxy/paths-canonical-target.txt','utf8').trim().split('\n');
const smis = lines.map(l => decodeURIComponent(new URL('http://x'+l).searchParams.get('smiles')));
const K = JSON.stringify({kekuleSmiles:true});
const variants = {
  base: s => { const m = rdkit.get_mol(s); const r=m.get_smiles(K); m.delete(); return r; },
  noRemoveHs: s => { const m = rdkit.get_mol(s, '{"removeHs":false}'); const r=m.get_smiles(K); m.delete(); return r; },
  noStereo: s => { const m = rdkit.get_mol(s, '{"assignStereo":false}'); const r=m.get_smiles(K); m.delete(); return r; },
  fastRings: s => { const m = rdkit.get_mol(s, '{"fastFindRings":true}'); const r=m.get_smiles(K); m.delete(); return r; },
  combo: s => { const m = rdkit.get_mol(s, '{"removeHs":false,"fastFindRings":true}'); const r=m.get_smiles(K); m.delete(); return r; },
};
const res = {};
for (let round=0; round<6; round++) for (const [k,fn] of Object.entries(variants)) {
  const t=process.hrtime.bigint(); for (const s of smis) fn(s); const dt=Number(process.hrtime.bigint()-t)/1e3/smis.length;
  (res[k] ??= []).push(dt);
}
for (const [k,v] of Object.entries(res)) { v.sort((a,b)=>a-b); console.log(k, v.map(x=>x.toFixed(0)).join(' ')); }
for (const k of Object.keys(variants)) { let d=0; for (const s of smis) if (variants[k](s)!==variants.base(s)) d++; console.log(k,'diffs',d); }
