#!/usr/bin/python3
"""Writes shared/chem/data/sugar-patterns.json, the structure lists of the Sugar Removal Utility
(Schaub, Zielesny, Steinbeck, Sorokina, J. Cheminform. 12, 67 (2020), doi:10.1186/s13321-020-00467-y)
as shared/chem/sugars/sugars.ts reads them (`linearSugars`, `linearAcidicSugars`: lists of {name, smiles}).

Source (MIT): JonasSchaub/SugarRemoval, src/main/java/de/unijena/cheminf/deglycosylation/
SugarRemovalUtility.java at commit f32c4be37040a37dd10ee25b25ade2e3859e190c: the constants
LINEAR_SUGARS_SMILES, LINEAR_ACIDIC_SUGARS_SMILES and CIRCULAR_SUGARS_SMILES with the names their
comments give. The three lists are the same in the SRU's v1.3.2.1 source and in its CDK port
(org.openscience.cdk.tools.SugarRemovalUtility). `circularSugars` is kept for reference:
sugars-detect.ts applies those ring templates as the equivalent rule (an isolated 5-7 ring of one
O and otherwise C atoms, all ring bonds single).

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_sugar_patterns.py
It checks that every SMILES parses (as SMILES and, as sugars.ts uses it, as SMARTS).
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import DATA

from rdkit import Chem

LINEAR = [
    ('aldoheptose', 'C(C(C(C(C(C(C=O)O)O)O)O)O)O'),
    ('aldohexose', 'C(C(C(C(C(C=O)O)O)O)O)O'),
    ('aldopentose', 'C(C(C(C(C=O)O)O)O)O'),
    ('aldotetrose', 'C(C(C(C=O)O)O)O'),
    ('aldotriose', 'C(C(C=O)O)O'),
    ('2-ketoheptose', 'C(C(C(C(C(C(CO)O)O)O)O)=O)O'),
    ('2-ketohexose', 'C(C(C(C(C(CO)O)O)O)=O)O'),
    ('2-ketopentose', 'C(C(C(C(CO)O)O)=O)O'),
    ('2-ketotetrose', 'C(C(C(CO)O)=O)O'),
    ('2-ketotriose', 'C(C(CO)=O)O'),
    ('heptitol', 'C(C(C(C(C(C(CO)O)O)O)O)O)O'),
    ('hexitol', 'C(C(C(C(C(CO)O)O)O)O)O'),
    ('pentitol', 'C(C(C(C(CO)O)O)O)O'),
    ('tetraitol', 'C(C(C(CO)O)O)O'),
    ('triol', 'C(C(CO)O)O'),
    ('2-deoxyhexose', 'C(C(C(C(CC=O)O)O)O)O'),
]
LINEAR_ACIDIC = [
    ('3-deoxyhexonic acid', 'C(C(CC(C(CO)O)O)O)(O)=O'),
    ('3,5-dihydroxyhexanoic acid', 'CC(CC(CC(=O)O)O)O'),
    ('3-hydroxypentanedioic acid', 'O=C(O)CC(O)CC(=O)O'),
    ('2-hydroxypentanedioic acid', 'O=C(O)CCC(O)C(=O)O'),
    ('2-deoxypentonic acid', 'C(C(C(CC(=O)O)O)O)O'),
]
CIRCULAR = [
    ('tetrahydrofuran (furanoses)', 'C1CCOC1'),
    ('tetrahydropyran (pyranoses)', 'C1CCOCC1'),
    ('oxepane (heptoses)', 'C1CCCOCC1'),
]

canon = set()
for name, smi in LINEAR + LINEAR_ACIDIC + CIRCULAR:
    mol = Chem.MolFromSmiles(smi)
    assert mol is not None and Chem.MolFromSmarts(smi) is not None, f'{name}: {smi} does not parse'
    key = Chem.MolToSmiles(mol)
    assert key not in canon, f'{name}: duplicate structure'
    canon.add(key)

entry = lambda rows: [{'name': n, 'smiles': s} for n, s in rows]
data = {
    'source': 'Sugar Removal Utility (JonasSchaub/SugarRemoval, MIT), SugarRemovalUtility.java at commit '
              'f32c4be37040a37dd10ee25b25ade2e3859e190c; Schaub et al., J Cheminform 12, 67 (2020)',
    'linearSugars': entry(LINEAR),
    'linearAcidicSugars': entry(LINEAR_ACIDIC),
    'circularSugars': entry(CIRCULAR),
}
out = os.path.join(DATA, 'sugar-patterns.json')
with open(out, 'w') as f:
    json.dump(data, f, indent=1)
    f.write('\n')
print(f'{out}: {len(LINEAR)} linear, {len(LINEAR_ACIDIC)} acidic linear, {len(CIRCULAR)} circular')
