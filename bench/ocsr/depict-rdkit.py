#!/usr/bin/python3
"""RDKit (Debian python3-rdkit 2022.09, rdMolDraw2D Cairo) drawings for bench/ocsr.ts: each SMILES of
the TSV given as the first argument drawn black on white at SIZE x SIZE px into OUT/rdkit-SIZE/N.png
(N: the row number from 0).   usage: depict-rdkit.py TSV OUT SIZE [SIZE...]"""
import csv
import os
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog('rdApp.*')
tsv, out, sizes = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
with open(tsv, newline='') as f:
    rows = list(csv.DictReader(f, delimiter='\t'))
for size in sizes:
    os.makedirs(f'{out}/rdkit-{size}', exist_ok=True)
    for n, row in enumerate(rows):
        d = rdMolDraw2D.MolDraw2DCairo(size, size)
        d.drawOptions().useBWAtomPalette()
        d.DrawMolecule(Chem.MolFromSmiles(row['smiles']))
        d.FinishDrawing()
        with open(f'{out}/rdkit-{size}/{n}.png', 'wb') as g:
            g.write(d.GetDrawingText())
