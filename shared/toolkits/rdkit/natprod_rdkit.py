"""natprod's native RDKit sidecar (shared/toolkits/index.ts), run by Debian's python3 with
python3-rdkit, for what RDKit's WebAssembly build cannot do: 3D embedding. The protocol loop is
shared/toolkits/natprod_sidecar.py (a request: {"id": "7", "op": "mol3d", "smiles": "CCO",
"hydrogens": false}). mol3d follows the original's get_3d_conformers
(docs/spec/chem-service.md §2.2 (17), §2.3 (27)).
"""
import os
import sys

# The protocol loop, imported before the toolkit (it bounds memory and keeps stdout for itself).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from natprod_sidecar import BadInput, serve  # noqa: E402

from rdkit import Chem, RDLogger, rdBase  # noqa: E402
from rdkit.Chem import AllChem  # noqa: E402

RDLogger.DisableLog("rdApp.*")


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


if __name__ == "__main__":
    serve("RDKit " + rdBase.rdkitVersion, OPS, read)
