"""Helpers shared by the data conversion scripts in this folder (plain Python 3, no packages)."""
import gzip
import hashlib
import os
import sys

DATA = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
REPO = os.path.abspath(os.path.join(DATA, '..', '..', '..'))
# The project's reference data folder sits next to the checkout (see the data README).
SHARED_DATA = os.path.abspath(os.path.join(REPO, '..', 'shared', 'data'))


def source_path(argv, default_name, debian_path):
    """The input file: argv[1], else ../shared/data/<name>, else Debian rdkit-data's identical copy."""
    if len(argv) > 1:
        return argv[1]
    for p in (os.path.join(SHARED_DATA, default_name), debian_path):
        if os.path.exists(p):
            return p
    sys.exit(f'input not found: give the path of {default_name} as the first argument')


def check_sha256(path, expected):
    """Refuse to convert anything but the documented source bytes."""
    h = hashlib.sha256(open(path, 'rb').read()).hexdigest()
    if h != expected:
        sys.exit(f'{path}: sha256 {h}, expected {expected}')


def write_gzip_text(name, text):
    """gzip -9 with no file name and mtime 0, so the same input always gives the same bytes."""
    out = os.path.join(DATA, name)
    with open(out, 'wb') as raw:
        with gzip.GzipFile(filename='', mode='wb', fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(text.encode('utf-8'))
    return out
