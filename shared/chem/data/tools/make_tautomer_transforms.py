#!/usr/bin/python3
"""Writes shared/chem/data/tautomer-transforms.json: RDKit 2022.09's default tautomer catalog and
default tautomer scoring data, as shared/chem/tautomer/enumerate.ts and tautomer.ts read them.

Where the facts come from (RDKit, BSD-3-Clause, release 2022.09.3):
- transforms: Code/GraphMol/MolStandardize/TautomerCatalog/tautomerTransforms.in
  (`defaultTautomerTransforms`: name, SMARTS, bond orders, charges; derived from MolVS and
  Sitzmann et al., J. Comput.-Aided Mol. Des. 24, 521-551 (2010), doi:10.1007/s10822-010-9346-4);
- scoring: Code/GraphMol/MolStandardize/Tautomer.cpp (`TautomerScoringFunctions`: +100 per
  all-aromatic ring, +150 more when all its atoms are carbon, the substructure terms below, -1 per H
  on P, S, Se, Te); limits: CleanupParameters defaults (1000 tautomers, 1000 transforms).
The release sources were not reachable from the build machine; the table is therefore checked here
against the installed release itself instead:
1. every name and SMARTS below occurs as a string constant in Debian's compiled
   libRDKitMolStandardize.so.1.2022.09.3 (librdkit1 202209.3-1);
2. CleanupParameters() carries the same limits;
3. the score this data gives equals native TautomerEnumerator.ScoreTautomer on every tautomer
   native Enumerate produces for the first N inputs of test/fixtures/tautomer_reference.tsv.
test/fixtures/tools/tautomer_transforms_check.py then shows that an enumerator built from this
list enumerates exactly what the default one does.

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_tautomer_transforms.py [N=150]
"""
import csv
import json
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import DATA, REPO

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem.MolStandardize import rdMolStandardize

RDLogger.DisableLog('rdApp.*')
LIBRARY = '/usr/lib/libRDKitMolStandardize.so.1.2022.09.3'

# (name, SMARTS, new bond orders of the query bonds or '' to swap single/double, charge changes)
TRANSFORMS = [
    ('1,3 (thio)keto/enol f', '[CX4!H0R{0-2}]-[C;z{1-2}]=[O,S,Se,Te;X1]', '', ''),
    ('1,3 (thio)keto/enol r', '[O,S,Se,Te;X2!H0]-[#6;z{1-2}]=[C,cz{0-1}R{0-1}]', '', ''),
    ('1,5 (thio)keto/enol f', '[CX4z0,NX3;!H0]-[C]=[C][Cz1H0]=[O,S,Se,Te;X1]', '', ''),
    ('1,5 (thio)keto/enol r', '[O,S,Se,Te;X2!H0]-[Cz1H0]=[C]-[C]=[Cz0,N]', '', ''),
    ('aliphatic imine f', '[CX4R{0-2}!H0]-[Cz1]=[NX2;N!H0,$(N-a)]', '', ''),
    ('aliphatic imine r', '[NX3;NH2,$([NH1]-a)]-[C;z{1-2}]=[CX3]', '', ''),
    ('special imine f', '[Nz0!H0]-[C]=[Cz0X3R0]', '', ''),
    ('special imine r', '[Cz0R0X4!H0]-[c]=[nz0]', '', ''),
    ('special imine r2', '[Cz0R0X4!H0]-[cr6](=[cr6])-[nr6H0z0]', '==-', ''),
    ('1,3 aromatic heteroatom H shift f', '[#7+0!H0]-[#6R1]=[O,#7X2+0]', '', ''),
    ('1,3 aromatic heteroatom H shift ', '[O,#7+0;!H0]-[#6R1]=[#7+0X2]', '', ''),
    ('1,3 heteroatom H shift', '[#7+0,S,O,Se,Te;!H0]-[#7X2,#6,#15X3H0]=[#7+0,#16,#8,Se,Te]', '', ''),
    ('1,5 aromatic heteroatom H shift', '[#7+0,#16,#8;!H0]-[#6,#7]=[#6]-[#6,#7]=[#7+0,#16,#8;H0]', '', ''),
    ('1,5 aromatic heteroatom H shift ',
     '[#7+0,#16,#8,Se,Te;!H0]-[#6,nX2]=[#6,nX2]-[#6,#7X2]=[#7X2+0,S,O,Se,Te]', '', ''),
    ('1,5 aromatic heteroatom H shift r',
     '[#7+0,S,O,Se,Te;!H0]-[#6,#7X2]=[#6,nX2]-[#6,nX2]=[#7+0,#16,#8,Se,Te]', '', ''),
    ('1,7 aromatic heteroatom H shift f',
     '[#7+0,#8,#16,Se,Te;!H0]-[#6,#7X2]=[#6,#7X2]-[#6,#7X2]=[#6]-[#6,#7X2]=[#7X2+0,S,O,Se,Te,Cz0X3]', '', ''),
    ('1,7 aromatic heteroatom H shift r',
     '[#7+0,S,O,Se,Te,Cz0X4;!H0]-[#6,#7X2]=[#6]-[#6,#7X2]=[#6,#7X2]-[#6,#7X2]=[NX2,S,O,Se,Te]', '', ''),
    ('1,9 aromatic heteroatom H shift f',
     '[#7+0,O;!H0]-[#6,#7X2]=[#6,#7X2]-[#6,#7X2]=[#6,#7X2]-[#6,#7X2]=[#6,#7X2]-[#6,#7X2]=[#7+0,O]', '', ''),
    ('1,11 aromatic heteroatom H shift f',
     '[#7+0,O;!H0]-[#6,nX2]=[#6,nX2]-[#6,nX2]=[#6,nX2]-[#6,nX2]=[#6,nX2]-[#6,nX2]=[#6,nX2]-[#6,nX2]=[#7X2+0,O]',
     '', ''),
    ('furanone f', '[O,S,N;!H0]-[#6z2r5]=,:[#6X3r5;$([#6]([#6;r5])=,:[#6X3r5])]', '', ''),
    ('furanone r', '[#6r5!H0;$([#6]([#6r5])[#6r5])][#6z2r5]=[O,S,N]', '', ''),
    ('keten/ynol f', '[C!H0]=[C]=[O,S,Se,Te;X1]', '#-', ''),
    ('keten/ynol r', '[O,S,Se,Te;!H0X2]-[C]#[C]', '==', ''),
    ('ionic nitro/aci-nitro f', '[C!H0]-[N+;$([N][O-])]=[O]', '', ''),
    ('ionic nitro/aci-nitro r', '[O!H0]-[N+;$([N][O-])]=[C]', '', ''),
    ('oxim/nitroso f', '[O!H0]-[Nz1]=[C]', '', ''),
    ('oxim/nitroso r', '[C!H0]-[Nz1]=[O]', '', ''),
    ('oxim/nitroso via phenol f', '[O!H0]-[N]=[C]-[C]=[C]-[C]=[OH0]', '', ''),
    ('oxim/nitroso via phenol r', '[O!H0]-[c]=,:[c][c]=,:[c]-[N]=[OH0]', '', ''),
    ('cyano/iso-cyanic acid f', '[O!H0]-[C]#[N]', '==', ''),
    ('cyano/iso-cyanic acid r', '[N!H0]=[C]=[O]', '#-', ''),
    ('formamidinesulfinic acid f', '[O,N;!H0]-[C]=[S,Se,Te;v6]=[O]', '=--', ''),
    ('formamidinesulfinic acid r', '[O!H0]-[S,Se,Te;v4]-[C]=[O,N]', '==-', ''),
    ('isocyanide f', '[C-0!H0]#[N+0]', '#', '-+'),
    ('isocyanide r', '[N+!H0]#[C-]', '#', '-+'),
    ('phosphonic acid f', '[OH]-[PX3H0]', '=', ''),
    ('phosphonic acid r', '[PX4H]=[O]', '-', ''),
]

# (name, SMARTS, score) of TautomerScoringFunctions::scoreSubstructs
TERMS = [
    ('benzoquinone', '[#6]1([#6]=[#6][#6]([#6]=[#6]1)=,:[N,S,O])=,:[N,S,O]', 25),
    ('oxim', '[#6]=[N][OH]', 4),
    ('C=O', '[#6]=,:[#8]', 2),
    ('N=O', '[#7]=,:[#8]', 2),
    ('P=O', '[#15]=,:[#8]', 2),
    ('C=hetero', '[C]=[!#1;!#6]', 1),
    ('C(=hetero)-hetero', '[C](=[!#1;!#6])[!#1;!#6]', 2),
    ('aromatic C = exocyclic N', '[c]=!@[N]', -1),
    ('methyl', '[CX4H3]', 1),
    ('guanidine terminal=N', '[#7]C(=[NR0])[#7H0]', 1),
    ('guanidine endocyclic=N', '[#7;R][#6;R]([N])=[#7;R]', 2),
    ('aci-nitro', '[#6]=[N+]([O-])[OH]', -4),
]
RINGS = {'aromatic': 100, 'allCarbonExtra': 150}
HETERO_H = [15, 16, 34, 52]
LIMITS = {'maxTautomers': 1000, 'maxTransforms': 1000}


def check_library():
    if not os.path.exists(LIBRARY):
        print(f'skipped: {LIBRARY} not installed, strings not checked')
        return
    blob = open(LIBRARY, 'rb').read()
    strings = [t[0] for t in TRANSFORMS] + [t[1] for t in TRANSFORMS] + [t[0] for t in TERMS] + [t[1] for t in TERMS]
    missing = [s for s in strings if b'\0' + s.encode() + b'\0' not in blob]
    assert not missing, f'not in {LIBRARY}: {missing}'
    print(f'{len(strings)}/{len(strings)} names and SMARTS found in {os.path.basename(LIBRARY)}')


def score(mol, terms):
    s = 0
    for ring in mol.GetRingInfo().BondRings():
        bonds = [mol.GetBondWithIdx(b) for b in ring]
        if all(b.GetIsAromatic() for b in bonds):
            s += RINGS['aromatic']
            if all(b.GetBeginAtom().GetAtomicNum() == 6 and b.GetEndAtom().GetAtomicNum() == 6 for b in bonds):
                s += RINGS['allCarbonExtra']
    for q, v in terms:
        s += len(mol.GetSubstructMatches(q)) * v
    s -= sum(a.GetTotalNumHs() for a in mol.GetAtoms() if a.GetAtomicNum() in HETERO_H)
    return s


def check_scores(n):
    params = rdMolStandardize.CleanupParameters()
    assert (params.maxTautomers, params.maxTransforms) == (LIMITS['maxTautomers'], LIMITS['maxTransforms'])
    terms = [(Chem.MolFromSmarts(s), v) for _, s, v in TERMS]
    te = rdMolStandardize.TautomerEnumerator()
    path = os.path.join(REPO, 'test', 'fixtures', 'tautomer_reference.tsv')
    rows = [r for r in csv.reader(open(path), delimiter='\t') if r and not r[0].startswith('#')][1:n + 1]
    checked = 0
    for smi, _, _ in rows:
        for taut in te.Enumerate(Chem.MolFromSmiles(smi)):
            mine, native = score(taut, terms), te.ScoreTautomer(taut)
            assert mine == native, f'{Chem.MolToSmiles(taut)}: score {mine}, native {native}'
            checked += 1
    print(f'scores identical to native ScoreTautomer for {checked} tautomers of {len(rows)} inputs')


check_library()
check_scores(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
data = {
    'source': f'RDKit {rdBase.rdkitVersion} (BSD-3-Clause) MolStandardize defaults: '
              'TautomerCatalog/tautomerTransforms.in and Tautomer.cpp TautomerScoringFunctions; '
              'see shared/chem/data/README.md',
    'limits': LIMITS,
    'transforms': [{'name': n, 'smarts': s, 'bonds': b, 'charges': c} for n, s, b, c in TRANSFORMS],
    'scoring': {
        'rings': RINGS,
        'terms': [{'name': n, 'smarts': s, 'score': v} for n, s, v in TERMS],
        'heteroHElements': HETERO_H,
    },
}
out = os.path.join(DATA, 'tautomer-transforms.json')
with open(out, 'w') as f:
    json.dump(data, f, indent=1)
    f.write('\n')
print(f'{out}: {len(TRANSFORMS)} transforms, {len(TERMS)} score terms')
