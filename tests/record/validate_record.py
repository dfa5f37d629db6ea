"""Validates gbx records against docs/gbx-record.schema.json and rejects NaN or Infinity anywhere.

Usage: validate_record.py SCHEMA RECORD... ; exits 1 naming the first record and fault found.
Uses jsonschema (Debian's python3-jsonschema, which scripts/lib.sh installs) where it is installed.
Without it (the GPU machine's python3 has none) it says so on stderr and validates with the
subset of JSON Schema 2020-12 below, which covers every keyword the gbx schema uses; a keyword it
does not know stops it with exit 2 rather than passing a record it did not check.
GBX_VALIDATE_BUILTIN=1 uses the subset even where jsonschema is installed (to test it).
"""
import json
import os
import re
import sys

# Keywords that carry no constraint.
ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs", "$comment", "default", "examples"}
KNOWN = ANNOTATIONS | {
    "type", "$ref", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "required", "properties",
    "additionalProperties", "items", "minItems", "enum", "const", "pattern", "if", "then", "else",
    "dependentRequired", "dependentSchemas",
}
TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer(),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


class UnknownKeyword(Exception):
    pass


class BuiltinValidator:
    """The subset of JSON Schema 2020-12 that docs/gbx-record.schema.json uses (local $refs only)."""

    def __init__(self, schema):
        self.root = schema

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise UnknownKeyword(f"$ref {ref}: only local references are supported")
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def iter_errors(self, value, schema=None, path=()):
        schema = self.root if schema is None else schema
        if schema is True or schema == {}:
            return
        unknown = set(schema) - KNOWN
        if unknown:
            raise UnknownKeyword(f"the built-in validator does not know {sorted(unknown)}: install python3-jsonschema")
        if "$ref" in schema:
            yield from self.iter_errors(value, self.resolve(schema["$ref"]), path)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(TYPES[t](value) for t in types):
                yield path, f"{json.dumps(value)[:60]} is not of type {types}"
                return
        if "enum" in schema and value not in schema["enum"]:
            yield path, f"{json.dumps(value)[:60]} is not one of {schema['enum']}"
        if "const" in schema and value != schema["const"]:
            yield path, f"{json.dumps(value)[:60]} is not {schema['const']!r}"
        if TYPES["number"](value):
            if "minimum" in schema and value < schema["minimum"]:
                yield path, f"{value} is less than the minimum of {schema['minimum']}"
            if "maximum" in schema and value > schema["maximum"]:
                yield path, f"{value} is greater than the maximum of {schema['maximum']}"
            if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
                yield path, f"{value} is not above {schema['exclusiveMinimum']}"
            if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
                yield path, f"{value} is not below {schema['exclusiveMaximum']}"
        if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
            yield path, f"{value!r} does not match {schema['pattern']!r}"
        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                yield path, f"fewer than {schema['minItems']} items"
            if "items" in schema:
                for i, item in enumerate(value):
                    yield from self.iter_errors(item, schema["items"], path + (i,))
        if isinstance(value, dict):
            yield from self.object_errors(value, schema, path)
        if "if" in schema:
            branch = "then" if not any(True for _ in self.iter_errors(value, schema["if"], path)) else "else"
            if branch in schema:
                yield from self.iter_errors(value, schema[branch], path)

    def object_errors(self, value, schema, path):
        for key in schema.get("required", []):
            if key not in value:
                yield path, f"{key!r} is a required property"
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                yield from self.iter_errors(item, properties[key], path + (key,))
            elif "additionalProperties" in schema:
                extra = schema["additionalProperties"]
                if extra is False:
                    yield path, f"additional property {key!r} is not allowed"
                else:
                    yield from self.iter_errors(item, extra, path + (key,))
        for key, needed in schema.get("dependentRequired", {}).items():
            if key in value:
                for other in needed:
                    if other not in value:
                        yield path, f"{other!r} is required when {key!r} is present"
        for key, subschema in schema.get("dependentSchemas", {}).items():
            if key in value:
                yield from self.iter_errors(value, subschema, path)


def make_validator(schema):
    """jsonschema's validator where it can be imported, else the built-in subset (said on stderr)."""
    if os.environ.get("GBX_VALIDATE_BUILTIN") != "1":
        try:
            import jsonschema
        except ImportError as error:
            print(f"validate_record.py: jsonschema cannot be imported ({error}): "
                  "validating with the built-in subset of JSON Schema", file=sys.stderr)
        else:
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            return lambda record: [(tuple(e.absolute_path), e.message) for e in validator.iter_errors(record)]
    builtin = BuiltinValidator(schema)
    return lambda record: list(builtin.iter_errors(record))


def reject_constant(token):
    raise ValueError(f"non-finite number {token} in the JSON")


def main():
    schema = json.load(open(sys.argv[1]))
    validate = make_validator(schema)
    for path in sys.argv[2:]:
        text = open(path).read()
        try:
            record = json.loads(text, parse_constant=reject_constant)
        except ValueError as error:
            print(f"{path}: {error}")
            return 1
        try:
            errors = sorted(validate(record), key=lambda e: [str(p) for p in e[0]])
        except UnknownKeyword as error:
            print(f"{path}: {error}", file=sys.stderr)
            return 2
        if errors:
            for where, message in errors[:5]:
                print(f"{path}: at {'/'.join(map(str, where))}: {message}")
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
