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


def raw(fn):
    """An op given the whole request (shared/toolkits/natprod_sidecar.py), not a parsed SMILES."""
    fn.raw = True
    return fn


@raw
def cdx_to_mol(req):
    # ChemDraw binary (cdx) or XML (cdxml) file, base64 in the request: the first molecule as a molfile.
    import base64
    import tempfile

    fmt = "cdxml" if req.get("format") == "cdxml" else "cdx"
    try:
        data = base64.b64decode(req.get("data") or "", validate=True)
    except ValueError:
        raise BadInput("Invalid CDX file: the upload is not valid base64")
    if not data:
        raise BadInput("Invalid CDX file: the file is empty")
    # Open Babel's CDX reader aborts the process on a file without ChemDraw's header: check it first.
    if fmt == "cdx" and not data.startswith(b"VjCD0100"):
        raise BadInput("Invalid CDX file: no ChemDraw header (a binary CDX file starts with VjCD0100)")
    if fmt == "cdxml" and b"<CDXML" not in data[:4096]:
        raise BadInput("Invalid CDXML file: no <CDXML> element")
    # The CDX reader hands its molecules to a conversion, not to a single read (which answers an
    # empty molecule, and aborts the process when asked for one more): convert the file to SDF.
    with tempfile.NamedTemporaryFile(suffix="." + fmt) as tmp, tempfile.NamedTemporaryFile(suffix=".sdf", mode="r") as out:
        tmp.write(data)
        tmp.flush()
        conv = ob.OBConversion()
        conv.SetInAndOutFormats(fmt, "sdf")
        if not conv.OpenInAndOutFiles(tmp.name, out.name):
            raise BadInput("Invalid CDX file: Open Babel could not open it")
        conv.Convert()
        conv.CloseOutFile()
        records = [r for r in out.read().split("$$$$\n") if "M  END" in r]
    mols = [m for m in (pybel.readstring("mol", r) for r in records) if m.OBMol.NumAtoms() > 0]
    if not mols:
        raise BadInput("Invalid CDX file: no molecule with atoms in the %s file" % fmt)
    mol = mols[0]
    if not mol.OBMol.Has2D() and not mol.OBMol.Has3D():
        # As the original: 2D coordinates when the file has none.
        ob.OBOp.FindType("gen2D").Do(mol.OBMol)
    return mol.write("mol").rstrip()


@raw
def xyz_frame(req):
    # The original's get_ob_xyz_conversions: Open Babel's distance-based bonds and bond orders, charge-unaware.
    text = req.get("xyz") or ""
    if not text.strip():
        raise BadInput("empty XYZ block")
    try:
        mol = pybel.readstring("xyz", text)
    except (IOError, OSError) as e:
        raise BadInput("Open Babel could not read the XYZ block: %s" % e)
    if mol.OBMol.NumAtoms() <= 0:
        raise BadInput("Open Babel could not read the XYZ block (no atoms)")
    can = mol.write("can").strip()
    return {
        "canonicalsmiles": can.split("\t", 1)[0].split()[0] if can else "",
        "inchi": mol.write("inchi").strip(),
        "inchikey": inchikey(mol, req) or "",
        "molblock": mol.write("mol").strip(),
    }


@raw
def inchi_to_smiles(req):
    # A structure given as InChI (auto-detected input), as SMILES for the other readers.
    text = (req.get("inchi") or "").strip()
    try:
        mol = pybel.readstring("inchi", text)
    except (IOError, OSError) as e:
        raise BadInput("Failed to convert InChI '%s' to molecule: %s" % (text[:200], e))
    if mol.OBMol.NumAtoms() == 0:
        raise BadInput("Failed to convert InChI '%s' to molecule" % text[:200])
    return mol.write("smi").split("\t")[0].strip()


OPS = {
    "canonical_smiles": canonical_smiles,
    "inchi": inchi,
    "inchikey": inchikey,
    "mol2d": mol2d,
    "mol3d": mol3d,
    "formats": formats,
    "cdx_to_mol": cdx_to_mol,
    "xyz_frame": xyz_frame,
    "inchi_to_smiles": inchi_to_smiles,
}


if __name__ == "__main__":
    serve("Open Babel " + ob.OBReleaseVersion(), OPS, read)
