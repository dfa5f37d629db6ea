#!/usr/bin/env python3
"""The public interface, checked: what the installed headers (cmake/GbxPublicHeaders.cmake) declare
directly in namespace gbx is exactly the list in docs/architecture.md's "The public interface"
section. Everything else they declare lives in gbx::detail (or deeper), so that a user who includes
<gbx/gbx.h> sees gbx's interface in gbx and its internals named as such. And the kernel benchmarks
(bench/bench_*.cc, the bench/ headers they include) and examples/ include gbx only as <gbx/gbx.h>,
besides kernels/: they are written as a user would write them. (bench/'s other programs measure gbx
itself, its statistics, harness and device probe, and include the layers they measure.)

usage: public_namespace_test.py SOURCE_DIR | --self-test"""
import pathlib
import re
import sys

TOKEN = re.compile(
    r'(?P<skip>//[^\n]*|/\*.*?\*/|R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'|\s+)"
    r"|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>::|.)",
    re.S | re.M,
)


def names_in_gbx(text):
    """Names a header declares directly in namespace gbx: types, aliases, functions and variables."""
    text = re.sub(r"^[ \t]*#(?:\\\n|[^\n])*", "", text, flags=re.M)  # directives and macros
    tokens = [m.group(0) for m in TOKEN.finditer(text) if m.group("skip") is None]
    names = set()
    scopes = []  # one per open brace: a namespace path, or None for any other brace
    statement = []  # the tokens of the declaration under way at namespace gbx's scope
    pending_namespace = None
    for token in tokens:
        if token == "namespace":
            pending_namespace = []
            continue
        if pending_namespace is not None:
            if token == "{":
                scopes.append("::".join(pending_namespace) or "(anonymous)")
                pending_namespace = None
            elif token in (";", "="):
                pending_namespace = None
            elif token != "::":
                pending_namespace.append(token)
            continue
        path = [part for scope in scopes if scope for part in scope.split("::")]
        at_gbx_scope = path == ["gbx"] and scopes and scopes[-1] is not None
        if token == "{":
            if at_gbx_scope:
                declared = declared_name(statement, defines=True)
                if declared:
                    names.add(declared)
                statement = []
            scopes.append(None)
            continue
        if token == "}":
            if scopes:
                scopes.pop()
            continue
        if not at_gbx_scope:
            continue
        if token == ";":
            declared = declared_name(statement, defines=False)
            if declared:
                names.add(declared)
            statement = []
        else:
            statement.append(token)
    return names


def declared_name(statement, defines):
    """The name a namespace-scope declaration introduces (defines: it ends with a body); None for a
    forward declaration."""
    tokens = statement
    while len(tokens) > 1 and tokens[0] == "[" and tokens[1] == "[":  # [[attributes]]
        tokens = tokens[tokens.index("]") + 2 :]
    if tokens and tokens[0] == "template":  # skip template<...>
        depth = 0
        for i, token in enumerate(tokens):
            depth += token == "<"
            depth -= token == ">"
            if depth == 0 and i > 0:
                tokens = tokens[i + 1 :]
                break
    if not tokens:
        return None
    for keyword in ("class", "struct", "enum", "union"):
        if keyword in tokens[:3]:
            rest = tokens[tokens.index(keyword) + 1 :]
            rest = [t for t in rest if t not in ("class", "struct", "final")]
            return rest[0] if rest and (defines or len(rest) > 1) else None
    if tokens[0] == "using":
        return tokens[1] if len(tokens) > 2 and tokens[2] == "=" else None
    depth = 0
    for i, token in enumerate(tokens):
        if token == "<":
            depth += 1
        elif token == ">":
            depth -= 1
        elif depth == 0 and token in ("(", "=", "[", "{") and i > 0:
            name = tokens[i - 1]
            return name if re.fullmatch(r"[A-Za-z_]\w*", name) else None
    return tokens[-1] if re.fullmatch(r"[A-Za-z_]\w*", tokens[-1]) else None


def self_test():
    header = """
    #include <x>
    namespace gbx {
    class Forward;                     // a forward declaration names nothing new
    struct Public { int member(); };   // "struct"
    template <class T> class Box final : public Base<T> {};
    enum class Kind { a, b };
    using Alias = int;
    inline int helper(int x) { return x; }
    [[noreturn]] void fail(const char* why);
    inline constexpr double kLimit = 1.0;
    namespace detail { struct Internal {}; void hidden(); }
    namespace { int unnamed; }
    }  // namespace gbx
    namespace gbx::detail { struct AlsoInternal {}; }
    namespace other { struct Elsewhere {}; }
    #define GBX_MACRO(x)   \\
      namespace gbx {      \\
      struct FromMacro {}; \\
      }
    """
    expected = {"Public", "Box", "Kind", "Alias", "helper", "fail", "kLimit"}
    found = names_in_gbx(header)
    if found != expected:
        sys.exit(f"public_namespace self-test: found {sorted(found)}, expected {sorted(expected)}")
    print("public_namespace self-test: passed")


def public_headers(root):
    text = (root / "cmake/GbxPublicHeaders.cmake").read_text()
    headers = []
    for block in re.findall(r"(?:set\(GBX_PUBLIC_HEADERS|list\(APPEND GBX_PUBLIC_HEADERS)([^)]*)\)", text):
        headers += block.split()
    if not headers:
        sys.exit("public_namespace: cmake/GbxPublicHeaders.cmake lists no GBX_PUBLIC_HEADERS")
    return ["include/gbx/gbx.h"] + headers


def documented(root):
    text = (root / "docs/architecture.md").read_text()
    match = re.search(r"^## The public interface\n(.*?)(?=^## )", text, re.S | re.M)
    if not match:
        sys.exit("public_namespace: docs/architecture.md has no '## The public interface' section")
    names = set()
    rows = [line for line in match.group(1).splitlines() if line.startswith("|") and not line.startswith("|---")]
    for row in rows[1:]:  # the first is the table's header
        cells = row.split("|")
        if len(cells) > 2:
            names |= set(re.findall(r"`([A-Za-z_]\w*)`", cells[2]))
    return names


def user_code_includes(root):
    """Failures: a quoted include of a gbx layer, other than kernels/, in the code written as a user would."""
    quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    examples = (p for p in (root / "examples").iterdir() if p.suffix in (".cc", ".cu"))
    pending = sorted(root.glob("bench/bench_*.cc")) + sorted(examples)
    seen, failures = set(), []
    while pending:
        source = pending.pop()
        if source in seen:
            continue
        seen.add(source)
        for included in quoted.findall(source.read_text()):
            if included.startswith("bench/"):
                pending.append(root / included)
            elif not included.startswith("kernels/"):
                failures.append(f"{source.relative_to(root)} includes \"{included}\": user code includes "
                                f"<gbx/gbx.h> (and kernels/), not gbx's internals")
    return failures, len(seen)


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    root = pathlib.Path(sys.argv[1])
    declared = {}
    for header in public_headers(root):
        for name in names_in_gbx((root / header).read_text()):
            declared.setdefault(name, header)
    listed = documented(root)
    failures = [
        f"{header} declares gbx::{name}, which docs/architecture.md's public interface does not list: "
        f"list it there, or move it into namespace gbx::detail"
        for name, header in sorted(declared.items())
        if name not in listed
    ]
    failures += [
        f"docs/architecture.md lists `{name}` in the public interface, but no public header declares gbx::{name}"
        for name in sorted(listed - declared.keys())
    ]
    include_failures, user_files = user_code_includes(root)
    failures += include_failures
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)
    print(f"public_namespace: {len(declared)} names in gbx, all listed; {len(public_headers(root))} headers; "
          f"{user_files} benchmark and example files include gbx only as <gbx/gbx.h>")


main()
