#!/usr/bin/python3
"""Writes shared/chem/data/crippen.json (read by shared/chem/descriptors/crippen.ts): the Wildman-Crippen
atom types of RDKit's CrippenClogP, in RDKit's order (the first SMARTS whose first atom matches an atom
types it), with their logP and MR contributions (Wildman and Crippen, J. Chem. Inf. Comput. Sci. 39,
868-873 (1999), doi:10.1021/ci990307l; RDKit, BSD-3-Clause).

The source is the table RDKit computes with: the `defaultParamData` string constant compiled into
Debian librdkit1 2022.09.3's /usr/lib/libRDKitDescriptors.so.1.2022.09.3 (Code/GraphMol/Descriptors/
Crippen.cpp), read out of the library. It is not the Data/Crippen.txt file of rdkit-data, which RDKit
does not read by default and whose two H2 rows differ ([!C;!N;!O] where the compiled table has
[!#6;!#7;!#8], so that file would type the hydrogen of an aromatic [nH] as H2 instead of H3). Rows
are copied unchanged; comment lines are dropped.

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_crippen.py [path of libRDKitDescriptors.so]
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import DATA, check_sha256

SHA256 = '276b07390241cc0236ba46a297408f23e6d1f2f0edd75f568d044b310e289271'
src = sys.argv[1] if len(sys.argv) > 1 else '/usr/lib/libRDKitDescriptors.so.1.2022.09.3'
check_sha256(src, SHA256)
blob = open(src, 'rb').read()
start = blob.find(b'#ID\tSMARTS\tlogP\tMR')
assert start >= 0 and blob.count(b'#ID\tSMARTS\tlogP\tMR') == 1, 'defaultParamData not found once in the library'
text = blob[start:blob.find(b'\0', start)].decode('ascii')
rows = []
for line in text.splitlines():
    if line.startswith('#') or not line.strip():
        continue
    cols = line.rstrip('\n').split('\t')
    label, smarts, logp, mr = (cols + ['', '', '', ''])[:4]
    rows.append([label, smarts, float(logp) if logp else 0.0, float(mr) if mr else 0.0])
data = {
    'source': 'RDKit Crippen.cpp defaultParamData, as compiled into Debian librdkit1 2022.09.3 (BSD-3-Clause); '
              'Wildman and Crippen, J. Chem. Inf. Comput. Sci. 39, 868-873 (1999), doi:10.1021/ci990307l',
    'columns': ['type', 'smarts', 'logP', 'MR'],
    'types': rows,
}
# One type per line, so a diff of the table reads row by row.
head = json.dumps({k: v for k, v in data.items() if k != 'types'})[:-1]
body = ',\n'.join(json.dumps(r) for r in rows)
with open(os.path.join(DATA, 'crippen.json'), 'w') as f:
    f.write(f'{head},\n"types": [\n{body}\n]}}\n')
print(f'{len(rows)} atom types')
