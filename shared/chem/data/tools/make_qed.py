#!/usr/bin/python3
"""Writes shared/chem/data/qed.json (type QedData in shared/chem/scores/qed.ts) from RDKit's own QED module
(rdkit.Chem.QED, descriptor version 1.1.0, Debian python3-rdkit 2022.09.3): property order, the
"mean" weights, the asymmetric double sigmoid parameters, the aliphatic-ring SMARTS, the 11
acceptor SMARTS and the 116 structural-alert SMARTS. Values are read from the module, not typed in.

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_qed.py
"""
import inspect
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import DATA

import rdkit
from rdkit.Chem import QED

# The module keeps the aliphatic-ring pattern only as a parsed molecule; its SMARTS text is taken
# from the source line, since MolToSmarts would respell it ('[$([A&R][!a])]').
m = re.search(r"AliphaticRings = Chem\.MolFromSmarts\('([^']+)'\)", inspect.getsource(QED))
assert m, 'AliphaticRings definition not found in rdkit/Chem/QED.py'
props = list(QED.QEDproperties._fields)
data = {
    'source': f'rdkit.Chem.QED (RDKit {rdkit.__version__}, BSD-3-Clause); '
              'Bickerton et al., Nature Chem. 4, 90-98 (2012), doi:10.1038/nchem.1243',
    'properties': props,
    'weightMean': [float(w) for w in QED.WEIGHT_MEAN],
    'ads': {p: {k: float(v) for k, v in QED.adsParameters[p]._asdict().items()} for p in props},
    'aliphaticRingSmarts': m.group(1),
    'acceptorSmarts': list(QED.AcceptorSmarts),
    'alertSmarts': list(QED.StructuralAlertSmarts),
}
out = os.path.join(DATA, 'qed.json')
with open(out, 'w') as f:
    json.dump(data, f, indent=1)
    f.write('\n')
print(f'{out}: {len(data["acceptorSmarts"])} acceptor and {len(data["alertSmarts"])} alert SMARTS')
