"""Self-check of the harness (no natprod needed): a small HTTP server and a synthetic test file in
the original's style go through the shim and report.py; exits 1 when a classification or a
request detail differs from what the harness promises (README.md).

    /usr/bin/python3 bench/original-tests/selftest.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *_a):
        pass

    def _answer(self, status, body, ctype="application/json", extra=None):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/latest/echo" or url.path.startswith("/latest/chem/"):
            self._answer(200, json.dumps({"path": url.path, "query": url.query, "ua": self.headers.get("user-agent")}))
        elif url.path == "/":
            self._answer(307, "", extra={"location": "/latest/docs"})
        elif url.path == "/latest/docs":
            self._answer(200, "<html>é</html>", "text/html; charset=utf-8")
        else:
            self._answer(404, '{"detail":"Not Found"}')

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        self._answer(200, json.dumps({"path": self.path, "body": body.decode("utf-8"), "ctype": self.headers.get("content-type")}))


TESTS = '''
from fastapi.testclient import TestClient
from app.main import app
from app.limiter import limiter
from app.modules.toolkits.helpers import parse_input

client = TestClient(app)


def test_http_pass():
    limiter.reset()
    r = client.get("/latest/echo", params={"flag": True, "off": False, "n": 2})
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    assert r.json() == {"path": "/latest/echo", "query": "flag=true&off=false&n=2", "ua": "testclient"}


def test_http_fail():
    assert client.get("/latest/missing").status_code == 200


def test_renamed_path():
    assert client.get("/latest/chem/tanimoto?smiles=CC,CCO").json()["path"] == "/latest/chem/bitsimilarity"


def test_redirect_and_text():
    r = client.get("/")
    assert r.url == "http://testserver/latest/docs" and r.text == "<html>é</html>"


def test_text_body_utf8():
    r = client.post("/latest/body", content="Cé", headers={"Content-Type": "text/plain"})
    assert r.json() == {"path": "/latest/body", "body": "Cé", "ctype": "text/plain"}


def test_internal():
    assert client.get("/latest/echo").status_code == 200
    parse_input("CCO", "rdkit", False)


def test_internal_import_in_test():
    from app.modules.depiction import get_rdkit_depiction  # noqa: F401
    assert True


def test_no_request():
    assert 1 + 1 == 2


def test_returns_false():
    client.get("/latest/echo")
    return False


def test_fails_before_request():
    raise RuntimeError("fixture-like failure")
'''

EXPECTED = {
    "test_http_pass": ("http", "passed"),
    "test_http_fail": ("http", "failed"),
    "test_renamed_path": ("http", "passed"),
    "test_redirect_and_text": ("http", "passed"),
    "test_text_body_utf8": ("http", "passed"),
    "test_internal": ("internal", "failed"),
    "test_internal_import_in_test": ("internal", "passed"),
    "test_no_request": ("no request", "passed"),
    "test_returns_false": ("http", "failed"),
    "test_fails_before_request": ("http", "failed"),
}


def main() -> int:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "tests"))
        with open(os.path.join(tmp, "tests", "test_fake.py"), "w", encoding="utf-8") as fh:
            fh.write(TESTS)
        results = os.path.join(tmp, "results.json")
        env = dict(os.environ, NATPROD_URL=f"http://127.0.0.1:{server.server_address[1]}", SHIM_RESULTS=results,
                   PYTHONPATH=os.path.join(HERE, "shim"), PYTHONDONTWRITEBYTECODE="1")
        subprocess.run([sys.executable, "-m", "pytest", "-p", "natprod_shim", "-p", "no:cacheprovider", "-q",
                        "--rootdir", tmp, "tests/test_fake.py"], cwd=tmp, env=env, capture_output=True, check=False)
        with open(results, encoding="utf-8") as fh:
            data = json.load(fh)
    server.shutdown()
    got = {}
    for rec in data["tests"]:
        result = report.outcome(rec)
        got[rec["nodeid"].split("::")[-1]] = (report.category(rec, result), result)
    bad = {k: (got.get(k), v) for k, v in EXPECTED.items() if got.get(k) != v}
    for name, (have, want) in bad.items():
        print(f"selftest: {name}: got {have}, expected {want}")
    print(f"selftest: {len(EXPECTED) - len(bad)} of {len(EXPECTED)} as expected")
    return 1 if bad or data["collect_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
