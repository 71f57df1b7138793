"""The protocol loop of natprod's Python sidecars (shared/toolkits/sidecar-protocol.ts), shared by
the Open Babel and the native RDKit one. Imported first by each: it bounds the process's memory
(NATPROD_SIDECAR_MEMORY_MB: past it an allocation fails, an answer says so, the process lives on)
and keeps stdout for the protocol alone (toolkits write warnings, C++ code may print to fd 1), both
before the toolkit is loaded. One JSON object per line each way:
  in:  {"id": "7", "op": "...", "smiles": "CCO", ...}
  out: {"id": "7", "ok": true, "value": ...} or {"id": "7", "ok": false, "kind": "invalid_input", "message": "..."}
The first line written is {"ready": true, "version": "<toolkit> <version>"}. Every request gets one
answer with its id; an exception is a failure line, never a dead process. `ping` and `sleep` are
answered here (the tests' probes of liveness and of the time limit).
"""
import json
import os
import resource
import sys
import time

_limit = int(os.environ.get("NATPROD_SIDECAR_MEMORY_MB", "0") or 0)
if _limit > 0:
    resource.setrlimit(resource.RLIMIT_AS, (_limit << 20, _limit << 20))

_stdout = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", newline="\n")
os.dup2(sys.stderr.fileno(), sys.stdout.fileno())


class BadInput(Exception):
    """The input cannot be read: a 422 naming the toolkit's reason."""


def _answer(obj):
    _stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    _stdout.flush()


def _run(req, ops, read):
    op = req.get("op")
    if op == "ping":
        return "pong"
    if op == "sleep":
        time.sleep(req.get("ms", 0) / 1000)
        return "slept"
    fn = ops.get(op)
    if fn is None:
        raise BadInput("unknown operation %s" % op)
    if getattr(fn, "raw", False):
        # An op that reads its own input (an XYZ text, a CDX file), not a SMILES.
        return fn(req)
    return fn(read(req.get("smiles")), req)


def serve(version, ops, read):
    """Answer requests from stdin until it closes: `ops[op](read(smiles), request)`."""
    _answer({"ready": True, "version": version})
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = ""
        try:
            req = json.loads(line)
            rid = str(req.get("id", ""))
            _answer({"id": rid, "ok": True, "value": _run(req, ops, read)})
        except BadInput as e:
            _answer({"id": rid, "ok": False, "kind": "invalid_input", "message": str(e)})
        except Exception as e:  # noqa: BLE001 - one answer per request, whatever happened
            _answer({"id": rid, "ok": False, "kind": "error", "message": "%s: %s" % (type(e).__name__, e)})
