#!/usr/bin/python3
"""Copies RDKit's PAINS filter table (Data/Pains/wehi_pains.csv) to
shared/chem/data/pains.wehi_pains.csv unchanged, after checking its bytes and that every line has
the `"<SMARTS>","<regId=NAME(N)>"` form parsePains (shared/chem/filters/pains.ts) reads.

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_pains.py [path/to/wehi_pains.csv]
Default input: ../shared/data/wehi_pains.csv, else /usr/share/RDKit/Data/Pains/wehi_pains.csv
(Debian rdkit-data 202209.3-1, byte-identical).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import DATA, check_sha256, source_path

SHA256 = '806e4328cdc7ccae7453b043b9254fda4615a996ac221092a56ae7369cb54f7c'

src = source_path(sys.argv, 'wehi_pains.csv', '/usr/share/RDKit/Data/Pains/wehi_pains.csv')
check_sha256(src, SHA256)
raw = open(src, 'rb').read()
lines = raw.decode('ascii').splitlines()
assert all(re.fullmatch(r'"[^"]+","<regId=[^>]+>"', l) for l in lines), 'unexpected line form'
out = os.path.join(DATA, 'pains.wehi_pains.csv')
open(out, 'wb').write(raw)
print(f'{out}: {len(lines)} filters')
