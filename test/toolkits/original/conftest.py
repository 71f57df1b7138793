"""The original service's own router tests (Steinbeck-Lab/cheminformatics-microservice, tests/ at
01e0f60, the MCP build natprod reproduces) run over HTTP against a running natprod (NATPROD_URL);
run.sh copies them next to this file. Their `TestClient(app)` becomes an HTTP client; nothing else
in them changes. Two documented differences are applied unless switched off: the six renamed
operations (docs/differences.md, first chemistry row; ORIGINAL_PATHS=1 keeps the old paths) and
`application/json; charset=utf-8` read as `application/json` (STRICT_CONTENT_TYPE=1 keeps it).
"""
import os, sys, types, requests
BASE = os.environ.get("NATPROD_URL", "http://127.0.0.1:8199").rstrip("/")

# docs/differences.md, first row of the chemistry table: six operations renamed by the seed.
RENAMES = [("/chem/tanimoto", "/chem/bitsimilarity"), ("/chem/coconut/pre-processing", "/chem/collection/pre-processing"),
           ("/chem/classyfire/", "/chem/chemclass/"), ("/chem/ertlfunctionalgroup", "/chem/fragmentfunctionalgroup"),
           ("/chem/pubchem/smiles", "/chem/extdb/smiles")]
RENAMED = os.environ.get("ORIGINAL_PATHS") != "1"
LOOSE_CT = os.environ.get("STRICT_CONTENT_TYPE") != "1"

class _Headers(dict):
    def __getitem__(self, k): return dict.__getitem__(self, k.lower())
    def get(self, k, d=None): return dict.get(self, k.lower(), d)
    def __contains__(self, k): return dict.__contains__(self, k.lower())

class _Resp:
    def __init__(self, r): self._r = r; self.status_code = r.status_code; self.headers = _Headers({k.lower(): (v.replace('application/json; charset=utf-8', 'application/json') if LOOSE_CT and k.lower() == 'content-type' else v) for k, v in r.headers.items()}); self.text = r.text; self.content = r.content; self.url = r.url.replace(BASE, 'http://testserver', 1)
    def json(self): return self._r.json()

class TestClient:
    __test__ = False
    def __init__(self, app=None, **kw): self.s = requests.Session()
    def _go(self, method, url, **kw):
        if RENAMED:
            for a, b in RENAMES: url = url.replace(a, b)
        kw.setdefault("timeout", 120); kw.setdefault("allow_redirects", True)
        return _Resp(self.s.request(method, BASE + url, **kw))
    def get(self, url, **kw): return self._go("GET", url, **kw)
    def post(self, url, **kw): return self._go("POST", url, **kw)

fastapi = types.ModuleType("fastapi"); tc = types.ModuleType("fastapi.testclient"); tc.TestClient = TestClient; fastapi.testclient = tc
app = types.ModuleType("app"); main = types.ModuleType("app.main"); main.app = None; app.main = main
for n, m in {"fastapi": fastapi, "fastapi.testclient": tc, "app": app, "app.main": main}.items(): sys.modules.setdefault(n, m)
