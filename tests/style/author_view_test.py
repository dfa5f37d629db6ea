#!/usr/bin/env python3
"""The author's view, checked: what a kernel author sees of gbx's two bases is their hooks and nothing
else. FixtureBase (extensions/fixture.h) declares, as public or protected, exactly the class form's
hooks listed below, and has one friend, detail::FixtureRun, which keeps the measurement, a worker's
held setups and the pair memory out of sight (extensions/fixture_run.h, extensions/setup_keeper.h).
The short form's State (extensions/short_form.h) declares as public exactly the short form's hooks, and
as protected only what a backend's state (CudaState) builds on. A new member there is a decision, made
by editing the list here with a reason.

usage: author_view_test.py SOURCE_DIR | --self-test"""
import pathlib
import re
import sys

TOKEN = re.compile(
    r'(?P<skip>//[^\n]*|/\*.*?\*/|R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'|\s+)"
    r"|(?P<id>[A-Za-z_~][A-Za-z0-9_]*)|(?P<op>::|.)",
    re.S | re.M,
)

# The class form's hooks: what an author's fixture overrides or calls (setup, run, declarations,
# memory, accuracy), and the bookkeeping a backend (CpuFixture, CudaFixture) shares with it.
FIXTURE_BASE = {
    "public": {"~FixtureBase", "FixtureBase", "operator="},  # destroyed through the base; not copied
    "protected": {
        "FixtureBase",
        "setup",
        "run",
        "teardown",
        "declare_problem",
        "declare_flops_per_run",
        "declare_bytes_per_run",
        "declare_seed",
        "seed",
        "host_array",
        "zeroed_host_bytes",
        "fill_random",
        "declare_precision",
        "declare_accuracy",
        "poison_outputs",
        "check_output",
        "declare_inout",
        "declare_inout_bytes",
        "copy_bytes",
        "duplicate",
        "memory_usage",
        "host_bytes",
        "keep",
    },
    "friends": {"detail::FixtureRun"},
}

# The short form's hooks, and what CudaState (extensions/cuda_short_form.h) builds on.
STATE = {
    "public": {
        "State",
        "~State",
        "operator=",
        "get_int",
        "get_float",
        "get_string",
        "axes",
        "host_array",
        "fill_random",
        "declare_flops_per_run",
        "declare_bytes_per_run",
        "declare_precision",
        "declare_problem",
        "declare_seed",
        "seed",
        "problem",
        "skip",
        "check",
        "inout",
        "exec",
    },
    "protected": {"adopt", "declare_check", "reference", "host_buffer", "checks_inout"},
    "friends": set(),
}


def tokens_of(text):
    text = re.sub(r"^[ \t]*#(?:\\\n|[^\n])*", "", text, flags=re.M)  # directives and macros
    tokens = [m.group(0) for m in TOKEN.finditer(text) if m.group("skip") is None]
    kept, i = [], 0
    while i < len(tokens):  # attributes ([[noreturn]]) say nothing about the name
        if tokens[i] == "[" and i + 1 < len(tokens) and tokens[i + 1] == "[":
            while i < len(tokens) and not (tokens[i] == "]" and tokens[i - 1] == "]"):
                i += 1
            i += 1
            continue
        kept.append(tokens[i])
        i += 1
    return kept


def class_body(tokens, name):
    """The tokens between the braces of `class name ... {`, or None."""
    for i in range(len(tokens) - 1):
        if tokens[i] not in ("class", "struct") or tokens[i + 1] != name:
            continue
        j = i + 2
        while j < len(tokens) and tokens[j] not in ("{", ";"):
            j += 1
        if j == len(tokens) or tokens[j] == ";":
            continue  # a declaration, not the definition
        depth, k = 0, j
        while k < len(tokens):
            depth += {"{": 1, "}": -1}.get(tokens[k], 0)
            if depth == 0:
                return tokens[j + 1 : k]
            k += 1
    return None


def member_name(statement, class_name):
    """The name a member declaration declares: a function's, an operator's, or a variable's."""
    if statement[0] == "template":
        depth, i = 0, 1
        while i < len(statement):
            depth += {"<": 1, ">": -1}.get(statement[i], 0)
            i += 1
            if depth == 0:
                break
        statement = statement[i:]
    if not statement or statement[0] in ("static_assert", "using", "typedef"):
        return statement[1] if statement and statement[0] == "using" else None
    if "operator" in statement:
        i = statement.index("operator")
        return "operator" + statement[i + 1]
    depth = 0
    for i, token in enumerate(statement):
        if token == "<":
            depth += 1
        elif token == ">":
            depth -= 1
        elif token == "(" and depth == 0 and i > 0:
            return statement[i - 1]  # a function, a constructor or a destructor
        elif token in ("=", "{", "[", ":") and depth == 0 and i > 0:
            return statement[i - 1]
    return statement[-1]


def members(body, class_name):
    """{access: set of names} and the friends, for the tokens of a class's body."""
    access = "private"
    found = {"public": set(), "protected": set(), "private": set(), "friends": set()}
    statement, depth, function_body = [], 0, False
    for token in body:
        if depth > 0:
            depth += {"{": 1, "}": -1}.get(token, 0)
            if depth == 0:
                statement.append("{}")
                if function_body:  # an inline function's body ends its declaration
                    record(statement, access, found, class_name)
                    statement = []
            continue
        if token in ("public", "protected", "private") and not statement:
            access = token
            continue
        if token == ":" and statement == [] and access:
            continue
        if token == "{":
            depth = 1
            # A body, unless it initialises: "x = {...}" or "int x{0}" (no parenthesis before it).
            function_body = "(" in statement and statement[-1] != "="
            continue
        if token == ";":
            record(statement, access, found, class_name)
            statement = []
            continue
        statement.append(token)
    return found


def record(statement, access, found, class_name):
    if not statement or statement == ["{}"]:  # the body after a constructor's initialisers
        return
    if statement[0] == "friend":
        rest = [t for t in statement[1:] if t not in ("class", "struct")]
        found["friends"].add("".join(rest))
        return
    if statement[0] in ("class", "struct", "enum") and len(statement) <= 3:
        found[access].add(statement[1])  # a nested type
        return
    name = member_name(statement, class_name)
    if name:
        found[access].add(name)


def check(text, class_name, expected, where):
    tokens = tokens_of(text)
    body = class_body(tokens, class_name)
    if body is None:
        return [f"{where}: no definition of class {class_name}"]
    found = members(body, class_name)
    failures = []
    for kind in ("public", "protected", "friends"):
        extra = sorted(found[kind] - expected[kind])
        missing = sorted(expected[kind] - found[kind])
        for name in extra:
            failures.append(
                f"{where}: {class_name} gains {kind} '{name}', which is not an author's hook: keep it in "
                "gbx::detail (fixture_run.h, setup_keeper.h), or add it to this test's list with a reason"
            )
        for name in missing:
            failures.append(f"{where}: {class_name} no longer has {kind} '{name}': take it off this test's list")
    return failures


def main(root):
    root = pathlib.Path(root)
    failures = check((root / "extensions/fixture.h").read_text(), "FixtureBase", FIXTURE_BASE, "extensions/fixture.h")
    failures += check((root / "extensions/short_form.h").read_text(), "State", STATE, "extensions/short_form.h")
    for failure in failures:
        print("style.author_view: " + failure)
    if not failures:
        print("style.author_view: FixtureBase and State show the author's hooks only")
    return 1 if failures else 0


def self_test():
    header = """
    #define NOISE(x) x
    namespace gbx {
    class Base;  // a declaration
    class Base : protected detail::Backend {
     public:
      ~Base() override;
      Base(const Base&) = delete;
      Base& operator=(const Base&) = delete;
      static void keep_setup_between_calls(bool keep);
     protected:
      Base();
      virtual void setup(const benchmark::State& state) = 0;
      void declare_problem(std::string problem) { record_.problem = std::move(problem); }
      template <class T>
      Span<T> host_array(std::size_t count) {
        return Span<T>{nullptr, count};
      }
      std::size_t host_bytes_ = 0;
     private:
      friend class detail::FixtureRun;
      friend class State;
      std::unique_ptr<detail::FixtureState> state_;
    };
    }
    """
    expected = {
        "public": {"~Base", "Base", "operator="},
        "protected": {"Base", "setup", "declare_problem", "host_array"},
        "friends": {"detail::FixtureRun"},
    }
    failures = check(header, "Base", expected, "self-test")
    wanted = {"keep_setup_between_calls", "host_bytes_", "State"}
    named = {name for name in wanted if any(f"'{name}'" in f for f in failures)}
    if named != wanted or len(failures) != 3:
        print("style.author_view self-test: expected three findings naming", sorted(wanted), "got", failures)
        return 1
    clean = {k: set(v) for k, v in expected.items()}
    clean["public"].add("keep_setup_between_calls")
    clean["protected"].add("host_bytes_")
    clean["friends"].add("State")
    if check(header, "Base", clean, "self-test"):
        print("style.author_view self-test: a header matching its list was refused")
        return 1
    print("style.author_view self-test: passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
