"""Figures of one harness run (bench/original-tests/run.sh): reads the JSON that natprod_shim
wrote and prints a Markdown table per test file, the total "N of M HTTP test cases pass" and one
line per failure.

A test is an HTTP test case when it touched none of the original's Python code and either sent at
least one request or did not pass (a test that fails before its first request still counts, so a
failure is never hidden). Tests that touched the original's Python code (app.modules..., the
limiter's internals, starlette) are counted apart as "internal"; tests that passed without sending
a request ("no request") too. Neither enters the HTTP figure.

    python3 report.py results.json [--title TEXT] [--internal]
"""
from __future__ import annotations

import argparse
import json
from collections import OrderedDict


def outcome(rec: dict) -> str:
    phases = rec.get("phases", {})
    if phases.get("call") == "failed":
        return "failed"
    if "failed" in (phases.get("setup"), phases.get("teardown")):
        return "error"
    if "skipped" in phases.values():
        return "skipped"
    return "passed" if phases.get("call") == "passed" else "error"


def category(rec: dict, result: str) -> str:
    if rec.get("internal"):
        return "internal"
    if rec.get("requests", 0) > 0 or result != "passed":
        return "http"
    return "no request"


def short(nodeid: str, width: int = 160) -> str:
    """Parametrized ids can hold a whole binary file: cut them for the listing."""
    text = nodeid.encode("unicode_escape").decode("ascii") if not nodeid.isprintable() else nodeid
    return text if len(text) <= width else text[: width - 3] + "..."


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--title", default="")
    ap.add_argument("--internal", action="store_true", help="also list the internal tests")
    args = ap.parse_args()
    with open(args.results, encoding="utf-8") as fh:
        data = json.load(fh)

    cols = ["collected", "HTTP", "passed", "failed", "errors", "skipped", "internal", "no request"]
    files: "OrderedDict[str, dict]" = OrderedDict()
    failures, internals = [], []
    for rec in data["tests"]:
        if data.get("interrupted") and "call" not in rec["phases"] and "failed" not in rec["phases"].values():
            continue  # the test running when the run was stopped
        fname = rec["nodeid"].split("::")[0]
        row = files.setdefault(fname, {c: 0 for c in cols} | {"collection errors": 0})
        result = outcome(rec)
        cat = category(rec, result)
        row["collected"] += 1
        if cat == "http":
            row["HTTP"] += 1
            row[{"passed": "passed", "failed": "failed", "error": "errors", "skipped": "skipped"}[result]] += 1
            if result != "passed":
                failures.append((rec["nodeid"], result, rec.get("reason", "")))
        else:
            row[cat] += 1
            if cat == "internal":
                internals.append((rec["nodeid"], ", ".join(rec["internal"][:3])))
    for err in data.get("collect_errors", []):
        fname = err["nodeid"].split("::")[0]
        row = files.setdefault(fname, {c: 0 for c in cols} | {"collection errors": 0})
        row["collection errors"] += 1
        failures.append((err["nodeid"], "collection error", err["reason"]))

    if args.title:
        print(f"### {args.title}\n")
    head = ["file"] + cols + ["collection errors"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    total = {c: 0 for c in head[1:]}
    for fname, row in files.items():
        print("| " + " | ".join([fname] + [str(row[c]) for c in head[1:]]) + " |")
        for c in head[1:]:
            total[c] += row[c]
    print("| **total** | " + " | ".join(str(total[c]) for c in head[1:]) + " |")
    print(f"\n**{total['passed']} of {total['HTTP']} HTTP test cases pass** "
          f"({total['internal']} internal and {total['no request']} without a request left out; "
          f"{total['collection errors']} collection errors)\n")
    if data.get("interrupted"):
        print("**The run was interrupted (time limit or ^C): the tests after the last one recorded are missing.**\n")
    if failures:
        print("Failures:\n")
        for nodeid, result, reason in failures:
            print(f"- `{short(nodeid)}` ({result}): {reason}")
    if args.internal and internals:
        print("\nInternal (the original's Python code):\n")
        for nodeid, names in internals:
            print(f"- `{short(nodeid)}`: {names}")


if __name__ == "__main__":
    main()
