#!/usr/bin/python3
"""Converts the RDKit Contrib NP-likeness model (publicnp.model.gz, a gzip'd Python pickle of
{morgan_environment_id: score}) into shared/chem/data/nplikeness.model.tsv.gz, the form
parseNpModel (shared/chem/scores/nplikeness.ts) reads: a header line, then `id<TAB>score` lines in
ascending id order. Scores are written with repr(), which JavaScript's Number() reads back to the
same double.

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_nplikeness_model.py [path/to/publicnp.model.gz]
Default input: ../shared/data/publicnp.model.gz, else /usr/share/RDKit/Contrib/NP_Score/publicnp.model.gz
(Debian rdkit-data 202209.3-1, byte-identical).
"""
import gzip
import pickle
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import check_sha256, source_path, write_gzip_text

SHA256 = '4bf58137230d341f5c2017c04865d7e752455f40f558e6b19224d8b840fdd973'

src = source_path(sys.argv, 'publicnp.model.gz', '/usr/share/RDKit/Contrib/NP_Score/publicnp.model.gz')
check_sha256(src, SHA256)
model = pickle.load(gzip.open(src))
assert isinstance(model, dict) and all(isinstance(k, int) and 0 <= k < 2**32 for k in model)
lines = ['id\tscore'] + [f'{k}\t{float(model[k])!r}' for k in sorted(model)]
out = write_gzip_text('nplikeness.model.tsv.gz', '\n'.join(lines) + '\n')
print(f'{out}: {len(model)} environments')
