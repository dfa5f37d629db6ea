"""Validates gbx records against docs/gbx-record.schema.json and rejects NaN or Infinity anywhere.

Usage: validate_record.py SCHEMA RECORD... ; exits 1 naming the first record and fault found.
Needs jsonschema (Debian's python3-jsonschema, which scripts/lib.sh installs); schema_test.sh skips without it.
"""
import json
import sys

import jsonschema


def reject_constant(token):
    raise ValueError(f"non-finite number {token} in the JSON")


def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        text = open(path).read()
        try:
            record = json.loads(text, parse_constant=reject_constant)
        except ValueError as error:
            print(f"{path}: {error}")
            return 1
        errors = sorted(validator.iter_errors(record), key=lambda e: list(e.absolute_path))
        if errors:
            for error in errors[:5]:
                print(f"{path}: at {'/'.join(map(str, error.absolute_path))}: {error.message}")
            return 1
        # What a schema cannot say: a benchmark's process groups partition its samples.
        for entry in record["benchmarks"]:
            gbx = entry.get("gbx", {})
            if "process_samples" in gbx and sum(g["count"] for g in gbx["process_samples"]) != len(gbx["samples"]):
                print(f"{path}: {entry['name']}: process_samples counts do not sum to the samples' length")
                return 1
        print(f"{path}: valid ({len(record['benchmarks'])} benchmark entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
