#!/usr/bin/env python3
"""csv_table.py - reads warpscope CSV files with Python's csv module and checks that together
they form one long-format table (docs/csv.md): the documented header exactly once per file,
ten fields per record, a verdict among check's (agree, differs, missing, unjudged) or none, a
numeric value, a line number exactly on line-scope records, time in us, and no two records for the same (kernel, variant, scope, line, metric, basis).
Usage: csv_table.py FILE...; exit 0 when every file passes, 1 with the file and record at fault."""
import csv
import sys

COLUMNS = ["kernel", "variant", "scope", "line", "metric", "unit", "value", "basis", "verdict", "cause"]
VERDICTS = ("", "agree", "differs", "missing", "unjudged")


def check(path, table, seen):
    with open(path, newline="") as f:
        records = list(csv.reader(f))
    if not records or records[0] != COLUMNS:
        return f"{path}:1: header is {records[0] if records else 'missing'}, want {COLUMNS}"
    for n, rec in enumerate(records[1:], start=2):
        if rec == COLUMNS:
            return f"{path}:{n}: the header again"
        if len(rec) != len(COLUMNS):
            return f"{path}:{n}: {len(rec)} fields, want {len(COLUMNS)}: {rec}"
        row = dict(zip(COLUMNS, rec))
        try:
            float(row["value"])
        except ValueError:
            return f"{path}:{n}: value '{row['value']}' is not a number"
        if row["scope"] not in ("kernel", "line"):
            return f"{path}:{n}: scope '{row['scope']}'"
        if (row["scope"] == "line") != row["line"].isdigit():
            return f"{path}:{n}: line '{row['line']}' with scope '{row['scope']}'"
        if row["verdict"] not in VERDICTS:
            return f"{path}:{n}: verdict '{row['verdict']}', want one of {VERDICTS}"
        if ("time" in row["metric"]) and row["unit"] != "us":
            return f"{path}:{n}: time metric {row['metric']} in '{row['unit']}', want us"
        key = tuple(row[c] for c in ("kernel", "variant", "scope", "line", "metric", "basis"))
        if key in seen:
            return f"{path}:{n}: duplicate record {key}"
        seen.add(key)
        table.append(row)
    return None


def main(paths):
    table, seen = [], set()
    for p in paths:
        err = check(p, table, seen)
        if err:
            print("csv_table: " + err, file=sys.stderr)
            return 1
    if not table:
        print("csv_table: no records", file=sys.stderr)
        return 1
    print(f"csv_table: {len(table)} records from {len(paths)} files in one table")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) if len(sys.argv) > 1 else 1)
