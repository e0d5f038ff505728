#!/usr/bin/env python3
"""json_validate.py - validates warpscope JSON documents against docs/json-schema.json with the
jsonschema package (Debian: python3-jsonschema), and with --finding TOOL:LINE checks that the
document (or a variant of it) carries a finding of that tool at that .cu line with threadIdx
and blockIdx as (x, y, z) lists, or blockIdx and a null threadIdx for a whole-warp finding.
Usage: json_validate.py SCHEMA FILE [--finding TOOL:LINE]...; exit 0 when all hold, else 1."""
import json
import sys

import jsonschema


def findings(doc):
    if doc.get("command") == "sim --compare":
        return [f for v in doc["variants"] for f in v["findings"]]
    return doc.get("findings", [])


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    with open(argv[2]) as f:
        doc = json.load(f)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"json_validate: {argv[2]}: at {list(e.path)}: {e.message[:300]}", file=sys.stderr)
    if errors:
        return 1
    want = [a.split(":") for a in argv[4::2] if a] if "--finding" in argv else []
    for tool, line in want:
        hit = [f for f in findings(doc) if f["tool"] == tool and f["line"] == int(line)]
        if not hit:
            print(f"json_validate: {argv[2]}: no {tool} finding at line {line}; have "
                  f"{[(f['tool'], f['line']) for f in findings(doc)]}", file=sys.stderr)
            return 1
        if not isinstance(hit[0]["blockIdx"], list):
            print(f"json_validate: {argv[2]}: {tool} finding at line {line} has no blockIdx", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
