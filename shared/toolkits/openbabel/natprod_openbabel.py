"""natprod's Open Babel sidecar (shared/toolkits/openbabel.ts), run by Debian's python3 with
python3-openbabel. One JSON object per line in, one per line out:
  in:  {"id": "7", "op": "canonical_smiles", "smiles": "CCO", ...}
  out: {"id": "7", "ok": true, "value": ...} or {"id": "7", "ok": false, "kind": "invalid_input", "message": "..."}
The first line written is {"ready": true, "version": "Open Babel 3.1.1"}. Every request gets one
answer with its id; an exception is a failure line, never a dead process. The calls follow the
original service's Open Babel wrapper (docs/spec/chem-service.md §2.2).
"""
import json
import os
import resource
import sys
import time

# Memory bound (set by natprod): past it an allocation fails, an answer says so, the process lives on.
_limit = int(os.environ.get("NATPROD_SIDECAR_MEMORY_MB", "0") or 0)
if _limit > 0:
    resource.setrlimit(resource.RLIMIT_AS, (_limit << 20, _limit << 20))

# Open Babel writes warnings to stderr; our stdout is the protocol's alone.
stdout = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", newline="\n")
os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

from openbabel import openbabel as ob  # noqa: E402
from openbabel import pybel  # noqa: E402

ob.obErrorLog.SetOutputLevel(0)


class BadInput(Exception):
    pass


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


def run(req):
    op = req.get("op")
    if op == "ping":
        return "pong"
    if op == "sleep":
        time.sleep(req.get("ms", 0) / 1000)
        return "slept"
    fn = OPS.get(op)
    if fn is None:
        raise BadInput("unknown operation %s" % op)
    return fn(read(req.get("smiles")), req)


def answer(obj):
    stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    stdout.flush()


def main():
    answer({"ready": True, "version": "Open Babel " + ob.OBReleaseVersion()})
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = ""
        try:
            req = json.loads(line)
            rid = str(req.get("id", ""))
            answer({"id": rid, "ok": True, "value": run(req)})
        except BadInput as e:
            answer({"id": rid, "ok": False, "kind": "invalid_input", "message": str(e)})
        except Exception as e:  # noqa: BLE001 - one answer per request, whatever happened
            answer({"id": rid, "ok": False, "kind": "error", "message": "%s: %s" % (type(e).__name__, e)})


if __name__ == "__main__":
    main()
