"""Judges 3D molblocks with native RDKit run directly (Debian's python3-rdkit), for
test/toolkits/rdkit3d.test.ts; never with natprod. Reads a JSON list of {"smiles", "molblock"} on
stdin, writes one JSON object per input:

  parsed     the molblock reads back (sanitised)
  same       its canonical isomeric SMILES, stereo perceived from the 3D coordinates, equals the
             input's (Debian's RDKit has no InChI: it is built without the InChI library). The
             molblock keeps the input's atom order, so a stereo element the input leaves
             unspecified is cleared on the same atom/bond of the answer before comparing.
  stereo     how many stereocentres and stereo double bonds the input specifies (all kept if same)
  dim3d      the header says 3D; zspread: max - min z of the atoms
  bonds      [min, max] heavy-atom bond length; bad_bonds: bonds off their covalent-radius sum by
             more than 0.3 A, or outside 1.0-2.0 A between C, N and O
  relax      MMFF94 relaxation energy of the answer (kcal/mol): Hs added back (addCoords) and
             optimised with the heavy atoms fixed, then E(that) - E(fully optimised from there).
  relax_ref  the same for fresh embeddings of the same input (EmbedMolecule, random coordinates,
             seeds 1-3), not MMFF-optimised: the smallest of the three (the yardstick: what an
             unoptimised geometry gives at best). null where MMFF has no parameters.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem

RDLogger.DisableLog("rdApp.*")
ORGANIC = {6, 7, 8}


def energy_gap(heavy):
    """E(Hs placed and relaxed, heavy atoms as given) - E(everything relaxed), MMFF94."""
    mol = Chem.AddHs(heavy, addCoords=True)
    props = AllChem.MMFFGetMoleculeProperties(mol)
    if props is None:
        return None
    ff = AllChem.MMFFGetMoleculeForceField(mol, props)
    for a in mol.GetAtoms():
        if a.GetAtomicNum() > 1:
            ff.AddFixedPoint(a.GetIdx())
    ff.Minimize(maxIts=2000)
    e0 = ff.CalcEnergy()
    ff = AllChem.MMFFGetMoleculeForceField(mol, props)
    ff.Minimize(maxIts=20000)
    return e0 - ff.CalcEnergy()


def canonical(mol, ref):
    mol = Chem.Mol(mol)
    Chem.AssignStereochemistryFrom3D(mol)
    for a, r in zip(mol.GetAtoms(), ref.GetAtoms()):
        if r.GetChiralTag() == Chem.ChiralType.CHI_UNSPECIFIED:
            a.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    for b in mol.GetBonds():
        r = ref.GetBondBetweenAtoms(b.GetBeginAtomIdx(), b.GetEndAtomIdx())
        if b.GetBondType() == Chem.BondType.DOUBLE and (r is None or r.GetStereo() == Chem.BondStereo.STEREONONE):
            b.SetStereo(Chem.BondStereo.STEREONONE)
    return Chem.MolToSmiles(mol)


def judge(smiles, molblock):
    out = {"smiles": smiles}
    ref = Chem.MolFromSmiles(smiles)
    mol = Chem.MolFromMolBlock(molblock)
    out["parsed"] = mol is not None
    if mol is None:
        return out
    same_atoms = [a.GetAtomicNum() for a in mol.GetAtoms()] == [a.GetAtomicNum() for a in ref.GetAtoms()]
    out["same"] = same_atoms and canonical(mol, ref) == Chem.MolToSmiles(ref)
    out["stereo"] = sum(a.GetChiralTag() != Chem.ChiralType.CHI_UNSPECIFIED for a in ref.GetAtoms()) + sum(
        b.GetStereo() != Chem.BondStereo.STEREONONE for b in ref.GetBonds())
    conf = mol.GetConformer()
    out["dim3d"] = molblock.split("\n")[1][20:22] == "3D" and conf.Is3D()
    zs = [conf.GetAtomPosition(i).z for i in range(mol.GetNumAtoms())]
    out["zspread"] = max(zs) - min(zs)
    lengths, bad = [], []
    pt = Chem.GetPeriodicTable()
    for b in mol.GetBonds():
        i, j = b.GetBeginAtom(), b.GetEndAtom()
        d = (conf.GetAtomPosition(i.GetIdx()) - conf.GetAtomPosition(j.GetIdx())).Length()
        lengths.append(d)
        expected = pt.GetRcovalent(i.GetAtomicNum()) + pt.GetRcovalent(j.GetAtomicNum())
        organic = i.GetAtomicNum() in ORGANIC and j.GetAtomicNum() in ORGANIC
        if abs(d - expected) > 0.3 or (organic and not 1.0 <= d <= 2.0):
            bad.append("%s%d-%s%d %.3f" % (i.GetSymbol(), i.GetIdx() + 1, j.GetSymbol(), j.GetIdx() + 1, d))
    out["bonds"] = [min(lengths), max(lengths)] if lengths else None
    out["bad_bonds"] = bad
    out["relax"] = energy_gap(mol)
    refs = []
    for seed in (1, 2, 3):
        raw = Chem.AddHs(ref)
        if AllChem.EmbedMolecule(raw, randomSeed=seed, useRandomCoords=True, maxAttempts=5000) == 0:
            refs.append(energy_gap(Chem.RemoveHs(raw)))
    refs = [r for r in refs if r is not None]
    out["relax_ref"] = min(refs) if refs else None
    return out


def main():
    print(json.dumps([judge(x["smiles"], x["molblock"]) for x in json.load(sys.stdin)]))


if __name__ == "__main__":
    main()
