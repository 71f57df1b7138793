#!/usr/bin/python3
"""Converts the RDKit Contrib SA-score fragment table (fpscores.pkl.gz, a gzip'd Python pickle of
[[score, id, id, ...], ...]) into shared/chem/data/sascore.fpscores.tsv.gz, the form parseSaTable
(shared/chem/scores/sascore.ts) reads: a header line, then one `score<TAB>id id ...` line per group, groups
in the pickle's order and ids ascending within a group (the parser sorts all ids anyway; sorted ids
compress about 15% better). Scores are written with repr() (exact round trip in JavaScript).

Run from the repository root:
  /usr/bin/python3 shared/chem/data/tools/make_sascore_table.py [path/to/fpscores.pkl.gz]
Default input: ../shared/data/fpscores.pkl.gz, else /usr/share/RDKit/Contrib/SA_Score/fpscores.pkl.gz
(Debian rdkit-data 202209.3-1, byte-identical).
"""
import gzip
import pickle
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
from common import check_sha256, source_path, write_gzip_text

SHA256 = '12556931eb2b909c099639dd866e5a85cb68bb2b4e3433ea6de0e267f9afd077'

src = source_path(sys.argv, 'fpscores.pkl.gz', '/usr/share/RDKit/Contrib/SA_Score/fpscores.pkl.gz')
check_sha256(src, SHA256)
groups = pickle.load(gzip.open(src))
lines = ['score\tids']
seen = set()
for g in groups:
    ids = sorted(int(x) for x in g[1:])
    # sascorer.py flattens the groups into one dict; a repeated id would make the order matter.
    assert not seen.intersection(ids), 'an id occurs in two groups'
    seen.update(ids)
    lines.append(f'{float(g[0])!r}\t' + ' '.join(str(i) for i in ids))
out = write_gzip_text('sascore.fpscores.tsv.gz', '\n'.join(lines) + '\n')
print(f'{out}: {len(groups)} groups, {len(seen)} environments')
