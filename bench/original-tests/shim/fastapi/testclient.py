"""`fastapi.testclient.TestClient` for the harness (bench/original-tests): the same calls as
Starlette's client (an httpx client), sent as real HTTP requests to natprod at NATPROD_URL with
requests. What differs from the in-process client, and how it is bridged:

- query values: httpx writes True/False/None as true/false/"" (requests would send True/False);
- `content=` is the raw body, `data=` a form (dict) or a raw body (str/bytes), as in httpx; text
  bodies are sent as UTF-8;
- redirects are followed (`follow_redirects`, default True) and `response.url` reads
  http://testserver/..., the in-process client's host;
- `response.text` is decoded with the answer's charset, else UTF-8 (httpx's default);
- the six operations natprod renamed (docs/differences.md, first row of the chemistry table) are
  sent to natprod's paths unless ORIGINAL_PATHS=1.
"""
from __future__ import annotations

import json as _json
import os
import re
from urllib.parse import urlsplit, urlunsplit

import natprod_shim
import requests

BASE = os.environ.get("NATPROD_URL", "http://127.0.0.1:8000").rstrip("/")
TIMEOUT = float(os.environ.get("SHIM_TIMEOUT_S", "120"))
RENAMES = [
    ("/chem/tanimoto", "/chem/bitsimilarity"),
    ("/chem/coconut/pre-processing", "/chem/collection/pre-processing"),
    ("/chem/classyfire/", "/chem/chemclass/"),
    ("/chem/ertlfunctionalgroup", "/chem/fragmentfunctionalgroup"),
    ("/chem/pubchem/smiles", "/chem/extdb/smiles"),
]
MAP_RENAMED = os.environ.get("ORIGINAL_PATHS") != "1"


def _param(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    return str(value)


def _params(params):
    if params is None:
        return None
    items = params.items() if isinstance(params, dict) else params
    out = []
    for key, value in items:
        for v in value if isinstance(value, (list, tuple)) else [value]:
            out.append((key, _param(v)))
    return out


def _target(url: str) -> str:
    if url.startswith("http://testserver"):
        url = url[len("http://testserver"):]
    if not url.startswith("/"):
        url = "/" + url
    path, sep, rest = url.partition("?")
    if MAP_RENAMED:
        for old, new in RENAMES:
            path = path.replace(old, new)
    return BASE + path + sep + rest


class Response:
    def __init__(self, r: requests.Response):
        self._r = r
        self.status_code = r.status_code
        self.headers = r.headers
        self.content = r.content
        self.reason_phrase = r.reason
        self.history = r.history
        parts = urlsplit(r.url)
        self.url = urlunsplit(("http", "testserver", parts.path, parts.query, parts.fragment))
        m = re.search(r"charset=([\w.-]+)", r.headers.get("content-type", ""), re.I)
        self.encoding = m.group(1) if m else "utf-8"

    @property
    def text(self) -> str:
        return self.content.decode(self.encoding, errors="replace")

    def json(self, **kw):
        return _json.loads(self.text, **kw)

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    def raise_for_status(self):
        self._r.raise_for_status()
        return self


class TestClient:
    __test__ = False  # not a test class

    def __init__(self, app=None, base_url: str = "http://testserver", **_kw):
        self.session = requests.Session()
        self.session.headers["user-agent"] = "testclient"

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.session.close()

    def request(self, method, url, *, params=None, content=None, data=None, json=None, files=None,
                headers=None, cookies=None, follow_redirects=None, allow_redirects=None, timeout=None, **_kw):
        natprod_shim.count_request()
        body = content if content is not None else data
        if isinstance(body, str):
            body = body.encode("utf-8")  # httpx sends text as UTF-8; http.client would use Latin-1
        redirects = follow_redirects if follow_redirects is not None else allow_redirects
        r = self.session.request(
            method, _target(url), params=_params(params), data=body, json=json, files=files,
            headers=headers, cookies=cookies, allow_redirects=True if redirects is None else redirects,
            timeout=TIMEOUT if timeout is None else timeout)
        return Response(r)

    def get(self, url, **kw):
        return self.request("GET", url, **kw)

    def post(self, url, **kw):
        return self.request("POST", url, **kw)

    def put(self, url, **kw):
        return self.request("PUT", url, **kw)

    def patch(self, url, **kw):
        return self.request("PATCH", url, **kw)

    def delete(self, url, **kw):
        return self.request("DELETE", url, **kw)

    def head(self, url, **kw):
        return self.request("HEAD", url, **kw)

    def options(self, url, **kw):
        return self.request("OPTIONS", url, **kw)
