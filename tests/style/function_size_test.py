#!/usr/bin/env python3
"""No function past 100 lines (the developers' guide; docs/architecture.md, "Conventions").

For the reviewers of a change. Reads every C++ and CUDA source of the tree (.cc, .h, .cu, .cuh, .cpp,
.hpp), build folders, node_modules and third-party or fixture folders left out, and fails on a function
whose body, from the line of its opening brace to the line of its closing one, runs past 100 lines.
What clang-tidy's readability-function-size with LineThreshold 100 checks, without compiling: the
test runs in a second, where clang-tidy over the tree takes many minutes on two cores.

A function is a brace block at namespace or class scope whose head (the text since the last ';', '{'
or '}') has a parameter list and no '=' outside it: free functions, member functions, constructors
(their member initialisers included), operators, and macro-defined bodies such as TEST(...) { }.
Lambdas and blocks inside a function count towards it. Comments, string and character literals
(raw strings included) and preprocessor lines are blanked first, so a brace in them counts for
nothing.

  function_size_test.py ROOT          the check; exit 1 naming each function too long
  function_size_test.py --self-test   the checker on sources made for it
"""

import os
import re
import sys

LIMIT = 100
SUFFIXES = (".cc", ".h", ".cu", ".cuh", ".cpp", ".hpp")
SKIPPED_DIRS = {".git", "node_modules", "third_party", "third-party", "fixtures", "corpus", "_deps"}

# The functions past the limit when the check came in, by file name (not folder, so that a file that
# moves keeps its entry) and function name, each with its length then. They are allowed so that the
# check fails on any new long function, or on one of these that grows past its length here; split one
# and take it off the list (an entry that no longer matches is reported, not failed). Nothing may be
# added.
KNOWN_LONG = {
    "pareto.cc:analyze_pareto": 116,
    "ab_machine_model.h:run_paired": 117,
    "device_probe_memory.cc:probe_memory": 102,
    "compare_command.cc:report_comparison": 128,
    "gbx.cc:run_command": 244,
    "protocol.cc:parse_command_line": 109,
    "process_runner.cc:ProcessRunner::launch": 159,
    "record_reader.cc:read_checked": 125,
    "html_report_charts.cc:ecdf_chart": 109,
    "html_report_scatter.cc:pareto_chart": 179,
    "html_report_scatter.cc:throughput_chart": 146,
    "process_merge.cc:merge_benchmark": 109,
}


def blank(text):
    """The source with comments, literals and preprocessor lines blanked, newlines kept."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        at_line_start = False
        if c == "\n":
            at_line_start = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            end = text.find(")" + delimiter + '"', open_paren)
            end = n if end < 0 else end + len(delimiter) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            out.append("")
            i = end
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(" ")  # a digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


SCOPE = re.compile(r"^\s*(template\s*<.*>\s*)?(namespace|class|struct|union|enum|extern\s*\"\")\b", re.S)


def function_name(head):
    """The name before the head's outermost parameter list."""
    depth = 0
    for i, c in enumerate(head):
        if c == "(":
            if depth == 0:
                m = re.search(r"(~?[A-Za-z_][\w:<>~]*(?:\s*operator\s*[^\s(]*)?)\s*$", head[:i])
                if m:
                    name = re.sub(r"\s+", "", m.group(1))
                    if re.fullmatch(r"[A-Z0-9_]+", name):  # a macro's body, TEST(Suite, Name): named by its arguments
                        end = head.find(")", i)
                        name += "(" + re.sub(r"\s+", "", head[i + 1:end]) + ")"
                    return name
            depth += 1
        elif c == ")":
            depth -= 1
    return head.strip().split("\n")[0][:40]


def is_function(head):
    head = re.sub(r"\boperator\s*(==|!=|<=|>=|=|\(\)|\[\])", "operator@", head)
    head = re.sub(r"^\s*template\s*<[^{;]*?>(?=\s*[A-Za-z_])", "", head, flags=re.S)
    if SCOPE.match(head) or "(" not in head:
        return False
    depth = 0
    for c in head:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "=" and depth == 0:
            return False
    return True


def functions(text):
    """(name, first line, lines) of each function of a blanked source."""
    found = []
    stack = []  # per open brace: ("function", line, name) / ("inner",) / ("scope",) / ("data",) / ("expr", head)
    head = ""
    line = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        in_function = any(kind[0] == "function" for kind in stack)
        if c == "{":
            if in_function:
                stack.append(("inner",))
            elif head.count("(") > head.count(")"):
                stack.append(("expr", head))  # a lambda or a braced list inside an argument list
            elif is_function(head):
                stack.append(("function", line, function_name(head), head))
            elif SCOPE.match(head) or head.strip() == "":
                stack.append(("scope",))
            else:
                stack.append(("data", head))
            head = ""
        elif c == "}":
            kind = stack.pop() if stack else ("scope",)
            head = ""
            rest = text[i + 1:i + 200].lstrip()
            if kind[0] == "function":
                if rest[:1] in (",", "{"):
                    head = kind[3] + "{}"  # a member initialiser's braces: the body is still to come
                else:
                    found.append((kind[2], kind[1], line - kind[1] + 1))
            elif kind[0] in ("expr", "data"):
                head = kind[1] + "{}"
        elif c == ";" and not in_function:
            head = ""
        elif not in_function:
            head += c
        i += 1
    return found


def long_functions(root):
    """'path:name' -> lines, for each function past the limit."""
    result = {}
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("build"))
        for name in sorted(files):
            if not name.endswith(SUFFIXES):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = blank(f.read())
            for function, first, lines in functions(text):
                if lines > LIMIT:
                    key = name + ":" + function
                    result[key] = max(lines, result.get(key, 0))
    return result


def check(root):
    failures = []
    found = long_functions(root)
    for key, lines in sorted(found.items()):
        allowed = KNOWN_LONG.get(key)
        if allowed is None:
            failures.append(f"{key}: {lines} lines, past the limit of {LIMIT}: split it into named steps")
        elif lines > allowed:
            failures.append(f"{key}: {lines} lines, grown past the {allowed} it was allowed: split it")
    for key in sorted(set(KNOWN_LONG) - set(found)):
        print(f"style.function_size: note: {key} is no longer past the limit: take it off KNOWN_LONG")
    for failure in failures:
        print("style.function_size: " + failure)
    return 1 if failures else 0


def self_test():
    import tempfile

    body = "\n".join(f"  x += {k};" for k in range(LIMIT))
    source = (
        "namespace a {\n"
        "struct S {\n  int f() const {\n    return 1;\n  }\n};\n"
        f"int too_long(int x) {{\n{body}\n  return x;\n}}\n"
        "int short_one(int x) { return x; }\n"
        'const char* text = R"(\n{\n' + "\n" * (LIMIT + 5) + '})";\n'
        "S::S(int a) : a_{a}, b_(a) {\n  a_ = 1;\n}\n"
        "}  // namespace a\n"
    )
    with tempfile.TemporaryDirectory() as root:
        with open(os.path.join(root, "made.cc"), "w") as f:
            f.write(source)
        found = long_functions(root)
        expected = {"made.cc:too_long": LIMIT + 3}
        if found != expected:
            print(f"style.function_size self-test: found {found}, expected {expected}")
            return 1
        names = [name for name, _, _ in functions(blank(source))]
        if names != ["f", "too_long", "short_one", "S::S"]:
            print(f"style.function_size self-test: functions {names}")
            return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(check(sys.argv[1]))
