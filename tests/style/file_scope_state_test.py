#!/usr/bin/env python3
"""No mutable state at file scope in the measurement: the .cc files of extensions/ (with its
subfolders) and runner/ define no variable at namespace scope that is not const or constexpr. What a
run keeps between calls lives in an object its owner holds (a worker's held setups: the SetupKeeper
that runner/worker_child.cc owns), not in a global that any call may change.

A scan of the text, not a compiler: comments, literals and preprocessor lines are blanked; at
namespace scope (inside namespace blocks only), each declaration ending in ';' is a variable unless it
is a type, an alias, a function or an assertion; a variable is const when 'constexpr' or 'const'
applies to it (a pointer to const, "const char* p", is not). A function-local static is outside its
reach, as is a variable declared with parentheses alone ("std::string s(x);" reads as a function).

usage: file_scope_state_test.py SOURCE_DIR | --self-test"""
import pathlib
import re
import sys

FOLDERS = ("extensions", "runner")

# What may stay, with the reason: state that belongs to the process itself, not to a run.
ALLOWED = {
    # The host memory this process has allocated and not freed, counted (atomically) so that an array
    # the machine cannot hold is refused with a message instead of a crash: the process's own account.
    ("extensions/host_memory.cc", "live_bytes"),
}

TOKEN = re.compile(
    r'(?P<skip>//[^\n]*|/\*.*?\*/|R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'|\s+)"
    r"|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>::|.)",
    re.S | re.M,
)

NOT_VARIABLES = {"using", "typedef", "template", "static_assert", "namespace", "friend", "extern_template"}
TYPE_KEYS = {"class", "struct", "union", "enum"}


def tokens_of(text):
    text = re.sub(r"^[ \t]*#(?:\\\n|[^\n])*", "", text, flags=re.M)  # directives and macros
    return [(m.group(0), text.count("\n", 0, m.start()) + 1) for m in TOKEN.finditer(text) if m.group("skip") is None]


def file_scope_declarations(tokens):
    """(tokens, line) of each declaration at namespace scope that ends in ';', with the braces of a
    type or an initialiser inside it kept as '{}'."""
    scopes = []  # True for a namespace's (or extern "C"'s) brace, False for any other
    statement, line = [], 0
    skip_depth = 0  # inside a brace that is not a namespace's: a body or an initialiser
    keep_going = False  # that brace belongs to a declaration that ends with ';' (a type, an initialiser)
    for token, at in tokens:
        if skip_depth:
            skip_depth += {"{": 1, "}": -1}.get(token, 0)
            if skip_depth == 0:
                scopes.pop()
                if keep_going:
                    statement.append("{}")
                else:
                    statement = []  # a function's body ends its definition
            continue
        if token == "{":
            is_namespace = (statement[:1] == ["namespace"]) or statement[:1] == ["extern"]
            if is_namespace:
                scopes.append(True)
                statement = []
                continue
            scopes.append(False)
            skip_depth = 1
            head = [t for t in statement if t not in ("static", "inline", "const", "constexpr")]
            keep_going = bool(head) and (head[0] in TYPE_KEYS or "=" in statement or "(" not in statement)
            continue
        if token == "}":
            if scopes:
                scopes.pop()
            statement = []
            continue
        if token == ";":
            if statement and all(scopes):
                yield statement, line
            statement = []
            continue
        if not statement:
            line = at
        statement.append(token)


def mutable_variable(statement):
    """The name of the mutable variable the declaration defines, or None."""
    if statement[0] in NOT_VARIABLES:
        return None
    if statement[0] in TYPE_KEYS:
        if "{}" not in statement:
            return None  # a declaration of a type, or an opaque enum
        after = statement[statement.index("{}") + 1 :]
        names = [t for t in after if re.match(r"[A-Za-z_]", t)]
        return None if not names or "const" in statement[: statement.index("{}")] else names[0]
    if "constexpr" in statement:
        return None
    # A function declares a parameter list right after its name, before any '='.
    depth, name = 0, None
    for i, token in enumerate(statement):
        if token == "<":
            depth += 1
        elif token == ">":
            depth -= 1
        elif depth == 0 and token in ("=", "{}", "["):
            break
        elif depth == 0 and token == "(" and i > 0 and re.match(r"[A-Za-z_]", statement[i - 1]):
            return None
    declarator = statement[: i if depth == 0 and token in ("=", "{}", "[") else len(statement)]
    names = [t for t in declarator if re.match(r"[A-Za-z_]", t) and t not in ("const", "static", "inline")]
    if not names:
        return None
    name = names[-1]
    # const applies to the variable when it comes after the last '*' or '&', or when there is none.
    stars = [i for i, t in enumerate(declarator) if t in ("*", "&")]
    consts = [i for i, t in enumerate(declarator) if t == "const"]
    if consts and (not stars or consts[-1] > stars[-1]):
        return None
    return name


def scan(text):
    """(line, name) of each mutable file-scope variable in a source's text."""
    return [(line, name) for statement, line in file_scope_declarations(tokens_of(text))
            if (name := mutable_variable(statement)) is not None]


def main(root):
    root = pathlib.Path(root)
    failures = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.cc")):
            for line, name in scan(path.read_text()):
                if (str(path.relative_to(root)), name) in ALLOWED:
                    continue
                failures.append(f"{path.relative_to(root)}:{line}: '{name}' is mutable state at file scope: "
                                "keep it in an object its owner holds and passes in, or make it const")
    for failure in failures:
        print("style.file_scope_state: " + failure)
    if not failures:
        print("style.file_scope_state: no mutable file-scope variable in " + ", ".join(f + "/" for f in FOLDERS))
    return 1 if failures else 0


def self_test():
    source = r'''
#include <string>
namespace gbx {
namespace {
constexpr long kMagic = 0x01;
const char* const kName = "x;y";
const char* pointer_to_const = "moves";          // mutable: the pointer can change
bool keep_setup = false;                          // mutable
struct Last { int a = 0; } last_short_form;       // mutable
struct Plain { int a = 0; };
std::string text_of(int a);
std::string text_of(int a) { static int calls = 0; return std::to_string(a + calls); }
const std::vector<int> kTable = {1, 2, 3};
int counters[4];                                  // mutable
using Alias = int;
enum class Kind { a, b };
}  // namespace
int Holder::count = 0;                            // mutable
void f() { int local = 0; (void)local; }
class Thing {
  int member_ = 0;
};
}  // namespace gbx
'''
    found = sorted(name for _, name in scan(source))
    wanted = sorted(["pointer_to_const", "keep_setup", "last_short_form", "counters", "count"])
    if found != wanted:
        print(f"style.file_scope_state self-test: found {found}, wanted {wanted}")
        return 1
    print("style.file_scope_state self-test: passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
