"""pytest plugin of the harness (bench/original-tests/run.sh): records, per test, how many HTTP
requests it sent through the TestClient replacement and which names of the original's own Python
code (app.modules..., app.limiter internals, starlette) it touched, and writes one JSON record per
test to $SHIM_RESULTS. report.py turns the records into the figures.

The original's internal modules cannot run here (natprod is a TypeScript service): importing one
gives a module whose names are stand-ins that raise OriginalInternalUsed when a test uses them, so a
file that mixes HTTP tests and function tests still collects, and each test is classified on its own.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import signal
import sys
import types

import pytest

_current: dict = {"nodeid": None}
_records: dict = {}
_collect_errors: list = []


class OriginalInternalUsed(Exception):
    """A test used the original's Python code, which is not part of its HTTP API."""


def _rec(nodeid: str) -> dict:
    return _records.setdefault(nodeid, {"nodeid": nodeid, "requests": 0, "internal": [], "phases": {}})


def mark_internal(name: str) -> None:
    nodeid = _current["nodeid"]
    if nodeid is not None and name not in _rec(nodeid)["internal"]:
        _rec(nodeid)["internal"].append(name)


def count_request() -> None:
    if _current["nodeid"] is not None:
        _rec(_current["nodeid"])["requests"] += 1


class _Internal:
    """Stands for one name of the original's Python code; any use marks the test and raises."""

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)

    def _used(self, *_a, **_k):
        name = object.__getattribute__(self, "_name")
        mark_internal(name)
        raise OriginalInternalUsed(f"{name} is the original's Python code, not its HTTP API")

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._used()

    __call__ = _used
    __getitem__ = _used
    __iter__ = _used
    __enter__ = _used


class _InternalModule(types.ModuleType):
    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        full = f"{self.__name__}.{attr}"
        mark_internal(full)
        return _Internal(full)


class _InternalFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """app.* (but app.main and app.limiter, which the shim provides) and starlette.*."""

    OWN = {"app", "app.main", "app.limiter"}

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.OWN:
            return None
        if fullname.startswith("app.") or fullname == "starlette" or fullname.startswith("starlette."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        mod = _InternalModule(spec.name)
        mod.__path__ = []
        mark_internal(spec.name)
        return mod

    def exec_module(self, module):
        pass


def install_finder() -> None:
    if not any(isinstance(f, _InternalFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _InternalFinder())


install_finder()


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Some of the original's tests report by returning False instead of asserting (pytest only
    warns about a returned value): such a return is made a failure, so it is counted as one."""
    test = pyfuncitem.obj
    if getattr(test, "_shim_verdict", False):
        return None

    def verdict(*args, **kwargs):
        result = test(*args, **kwargs)
        if result is False:
            raise AssertionError(f"{pyfuncitem.name} returned False (its own verdict: failed)")
        return result

    verdict._shim_verdict = True
    pyfuncitem.obj = verdict
    return None


def pytest_runtest_logstart(nodeid, location):
    _current["nodeid"] = nodeid
    _rec(nodeid)


def pytest_runtest_logfinish(nodeid, location):
    _current["nodeid"] = None


def _reason(report) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    if isinstance(report.longrepr, tuple):  # a skip: (file, line, reason)
        text = str(report.longrepr[2])
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return (lines[0] if lines else "")[:300]


def pytest_runtest_logreport(report):
    rec = _rec(report.nodeid)
    rec["phases"][report.when] = report.outcome
    if report.outcome != "passed" and "reason" not in rec:
        rec["reason"] = _reason(report)
        rec["reason_phase"] = report.when


def pytest_collectreport(report):
    if report.outcome == "failed":
        _collect_errors.append({"nodeid": report.nodeid, "reason": _reason(report)})


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt("run.sh's time limit (RUN_TIMEOUT_S)")


def pytest_configure(config):
    # run.sh stops a run past its time limit with SIGTERM: pytest then ends the session as for ^C,
    # and the tests run so far are still written.
    signal.signal(signal.SIGTERM, _interrupt)


def pytest_sessionfinish(session, exitstatus):
    out = os.environ.get("SHIM_RESULTS")
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            json.dump({"tests": list(_records.values()), "collect_errors": _collect_errors,
                       "interrupted": int(exitstatus) == int(pytest.ExitCode.INTERRUPTED)}, fh, indent=1)
