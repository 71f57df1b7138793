"""natprod's Open Babel sidecar (shared/toolkits/openbabel.ts), run by Debian's python3 with
python3-openbabel, on the protocol loop of shared/toolkits/natprod_sidecar.py. The calls follow the
original service's Open Babel wrapper (docs/spec/chem-service.md §2.2).
"""
import os
import sys

# The protocol loop, imported before the toolkit (it bounds memory and keeps stdout for itself).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from natprod_sidecar import BadInput, serve  # noqa: E402

from openbabel import openbabel as ob  # noqa: E402
from openbabel import pybel  # noqa: E402

ob.obErrorLog.SetOutputLevel(0)


def read(smiles):
    if not isinstance(smiles, str) or not smiles.strip():
        raise BadInput("empty SMILES")
    try:
        mol = pybel.readstring("smi", smiles.strip())
    except (IOError, OSError) as e:
        raise BadInput("Open Babel could not read the SMILES: %s" % e)
    if mol.OBMol.NumAtoms() == 0:
        raise BadInput("Open Babel could not read the SMILES (no atoms)")
    return mol


def canonical_smiles(mol, req):
    return mol.write("can").split("\t")[0].strip()


def inchi(mol, req):
    return mol.write("inchi").strip() or None


def inchikey(mol, req):
    conv = ob.OBConversion()
    conv.SetOutFormat("inchi")
    conv.SetOptions("K", conv.OUTOPTIONS)
    return conv.WriteString(mol.OBMol).strip() or None


def mol2d(mol, req):
    # As upstream: coordinates from OBBuilder (a rough 3D build), written as a molfile.
    ob.OBBuilder().Build(mol.OBMol)
    return mol.write("mol")


def mol3d(mol, req):
    # As upstream (get_ob_mol with threeD): hydrogens, make3D, gen3D --best, then remove the
    # hydrogens; the 3D viewer (depict) keeps them.
    mol.addh()
    mol.make3D()
    ob.OBOp.FindType("gen3D").Do(mol.OBMol, "--best")
    if not req.get("hydrogens"):
        mol.removeh()
    return mol.write("mol")


def formats(mol, req):
    return {
        "mol": mol2d(read(req["smiles"]), req),
        "canonicalsmiles": canonical_smiles(mol, req),
        "inchi": inchi(mol, req),
        "inchikey": inchikey(mol, req),
    }


OPS = {
    "canonical_smiles": canonical_smiles,
    "inchi": inchi,
    "inchikey": inchikey,
    "mol2d": mol2d,
    "mol3d": mol3d,
    "formats": formats,
}


if __name__ == "__main__":
    serve("Open Babel " + ob.OBReleaseVersion(), OPS, read)
