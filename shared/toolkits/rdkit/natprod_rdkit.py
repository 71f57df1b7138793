"""natprod's native RDKit sidecar (shared/toolkits/index.ts), run by Debian's python3 with
python3-rdkit, for what RDKit's WebAssembly build cannot do: 3D embedding. The protocol is the
Open Babel sidecar's (shared/toolkits/sidecar-protocol.ts): one JSON object per line each way,
  in:  {"id": "7", "op": "mol3d", "smiles": "CCO", "hydrogens": false}
  out: {"id": "7", "ok": true, "value": "<molblock>"} or {"id": "7", "ok": false, "kind": "invalid_input", "message": "..."}
The first line written is {"ready": true, "version": "RDKit 2022.09.3"}. An exception is a
failure line, never a dead process. mol3d follows the original's get_3d_conformers
(docs/spec/chem-service.md §2.2 (17), §2.3 (27)).
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

# RDKit logs to stderr, C++ code may print to fd 1: our stdout is the protocol's alone.
stdout = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", newline="\n")
os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

from rdkit import Chem, RDLogger, rdBase  # noqa: E402
from rdkit.Chem import AllChem  # noqa: E402

RDLogger.DisableLog("rdApp.*")


class BadInput(Exception):
    pass


def read(smiles):
    if not isinstance(smiles, str) or not smiles.strip():
        raise BadInput("empty SMILES")
    # As the original's parse_input: a space in a query string was a '+'.
    mol = Chem.MolFromSmiles(smiles.strip().replace(" ", "+"))
    if mol is None or mol.GetNumAtoms() == 0:
        raise BadInput("RDKit could not read the SMILES")
    return mol


def embed(mol):
    return AllChem.EmbedMolecule(mol, maxAttempts=5000, useRandomCoords=True)


def mol3d(mol, req):
    # As upstream: add Hs, embed from random coordinates, MMFF-optimise (re-embed when that
    # fails), remove the Hs unless the 3D viewer asks for them.
    mol = Chem.AddHs(mol)
    embed(mol)
    try:
        AllChem.MMFFOptimizeMolecule(mol)
    except Exception:  # noqa: BLE001 - upstream re-embeds on any failure
        embed(mol)
    if mol.GetNumConformers() == 0:
        # Upstream would write all-zero coordinates; natprod says so instead.
        raise BadInput("RDKit could not embed this structure in 3D (5000 attempts)")
    if not req.get("hydrogens"):
        mol = Chem.RemoveHs(mol)
    return Chem.MolToMolBlock(mol)


OPS = {"mol3d": mol3d}


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
    answer({"ready": True, "version": "RDKit " + rdBase.rdkitVersion})
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
