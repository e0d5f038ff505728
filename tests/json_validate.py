#!/usr/bin/env python3
"""json_validate.py - validates warpscope JSON documents against docs/json-schema.json with the
jsonschema package (Debian: python3-jsonschema), and with --finding TOOL:LINE checks that the
document (or a variant of it) carries a finding of that tool at that .cu line with threadIdx
and blockIdx as (x, y, z) lists, or blockIdx and a null threadIdx for a whole-warp finding.
Usage: json_validate.py SCHEMA FILE [--finding TOOL:LINE]... [FILE [--finding TOOL:LINE]...]...;
exit 0 when all hold, else 1 (each file is checked, every failure printed). Several files in one
call: the interpreter and jsonschema start once (a test validating nine files paid that nine times)."""
import json
import sys

import jsonschema


def findings(doc):
    if doc.get("command") == "sim --compare":
        return [f for v in doc["variants"] for f in v["findings"]]
    return doc.get("findings", [])


def check(validator, path, want):
    """Prints what is wrong with the document at path; True when nothing is."""
    with open(path) as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"json_validate: {path}: at {list(e.path)}: {e.message[:300]}", file=sys.stderr)
    if errors:
        return False
    for tool, line in want:
        hit = [f for f in findings(doc) if f["tool"] == tool and f["line"] == int(line)]
        if not hit:
            print(f"json_validate: {path}: no {tool} finding at line {line}; have "
                  f"{[(f['tool'], f['line']) for f in findings(doc)]}", file=sys.stderr)
            return False
        if not isinstance(hit[0]["blockIdx"], list):
            print(f"json_validate: {path}: {tool} finding at line {line} has no blockIdx", file=sys.stderr)
            return False
    return True


def main(argv):
    if len(argv) < 3 or argv[2] == "--finding":
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    docs = []                       # [path, [(tool, line), ...]]
    args = argv[2:]
    i = 0
    while i < len(args):
        if args[i] == "--finding":
            if i + 1 >= len(args) or ":" not in args[i + 1]:
                print("json_validate: --finding needs TOOL:LINE", file=sys.stderr)
                return 1
            docs[-1][1].append(args[i + 1].split(":", 1))
            i += 2
        else:
            docs.append([args[i], []])
            i += 1
    ok = [check(validator, path, want) for path, want in docs]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
