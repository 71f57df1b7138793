#!/usr/bin/python3
"""The 200 LOTUS structures of bench/ocsr.ts: the first 200 distinct structures (by InChIKey) of
../shared/data/lotus_sample_1000.tsv that RDKit reads, with at most 60 heavy atoms (a figure of a
larger one is rarely legible at 300 px). Run once from the repository root:

    /usr/bin/python3 bench/ocsr/make-data.py

writes bench/data/ocsr_lotus_200.tsv (wikidata id, InChIKey, SMILES), which is committed; the
benchmark never reads ../shared.
"""
import csv

from rdkit import Chem, RDLogger

RDLogger.DisableLog('rdApp.*')
seen, rows = set(), []
with open('../shared/data/lotus_sample_1000.tsv', newline='') as f:
    for rec in csv.DictReader(f, delimiter='\t'):
        key, smiles = rec['structure_inchikey'], rec['structure_smiles']
        if key in seen:
            continue
        mol = Chem.MolFromSmiles(smiles)
        if mol is None or mol.GetNumHeavyAtoms() > 60:
            continue
        seen.add(key)
        rows.append((rec['structure_wikidata'].rsplit('/', 1)[-1], key, smiles))
        if len(rows) == 200:
            break
with open('bench/data/ocsr_lotus_200.tsv', 'w') as f:
    f.write('wikidata\tinchikey\tsmiles\n')
    for r in rows:
        f.write('\t'.join(r) + '\n')
print(len(rows), 'structures')
