#!/usr/bin/env python3
"""Plants calibrated slowdowns into a copy of the tree's CPU kernels, results bit for bit unchanged.

    scripts/aa-plant.py COPY_ROOT

Each planted kernel repeats part of its own work into a sink that nothing reads (reduce: the naive sum
of the first fraction f of the input, into a volatile float; memcpy: the first fraction copied again,
the same bytes to the same place), so that its result is the one the untouched kernel returns and its
time grows by about f times the cost of that work. The fractions aim at the planted sizes below; the
sizes actually planted are measured by scripts/aa-check (the ratio of each planted row). Prints the
plan as JSON: {benchmark family/variant: nominal slowdown}.
"""
import json
import pathlib
import sys

if sys.argv[1:] == ["--plan-only"]:
    root = None
else:
    root = pathlib.Path(sys.argv[1])
# variant -> (file, the function's first line, the statement the extra work follows, the extra work, nominal)
SINK = """
namespace {
// Planted by scripts/aa-plant.py: extra work whose result nothing reads (the kernels' results unchanged).
volatile float planted_sink = 0.0f;
void planted_sum(const float* x, std::size_t m) {
  float s = 0.0f;
  for (std::size_t i = 0; i < m; ++i) s += x[i];
  planted_sink = s;
}
}  // namespace
"""
PLANTS = {
    # naive and pairwise cost about one add per element, as planted_sum does: f is the slowdown.
    "reduce/naive": ("kernels/reduce.cc", "float reduce_naive(const float* x, std::size_t n) {",
                     "  return sum;\n}", "  planted_sum(x, n / 10);\n", 0.10),
    "reduce/pairwise": ("kernels/reduce.cc", "float reduce_pairwise(const float* x, std::size_t n) {",
                        None, None, 0.03),
    # kahan's dependent chain costs about four adds per element: a fifth of the input is about 5%.
    "reduce/kahan": ("kernels/reduce.cc", "float reduce_kahan(const float* x, std::size_t n) {",
                     "  return sum;\n}", "  planted_sum(x, n / 5);\n", 0.05),
    "bandwidth/memcpy": ("kernels/bandwidth.cc", "void copy_memcpy(float* dst, const float* src, std::size_t n) {",
                         None, None, 0.05),
}

if root is None:
    print(json.dumps({k: v[4] for k, v in PLANTS.items()}))
    sys.exit(0)
reduce = root / "kernels/reduce.cc"
text = reduce.read_text()
text = text.replace("namespace gbx::kernels {\n", "namespace gbx::kernels {\n" + SINK, 1)
for variant in ("reduce/naive", "reduce/kahan"):
    _, head, tail, extra, _ = PLANTS[variant]
    start = text.index(head)
    end = text.index(tail, start)
    text = text[:end] + extra + text[end:]
# pairwise recurses and its leaves call naive: the planted reduce_pairwise does its extra work once,
# then calls the untouched recursion, renamed, whose leaves are naive's loop written out. The copy keeps
# external linkage, as the original has, so that the compiler treats the copy as it treats the original.
head = PLANTS["reduce/pairwise"][1]
start = text.index(head)
end = text.index("\n}\n", start) + 3
body = text[start:end].replace("reduce_pairwise(", "pairwise_unplanted(")
leaf = "  if (n <= kPairwiseBlock) return reduce_naive(x, n);"
assert leaf in body, "kernels/reduce.cc: reduce_pairwise changed; update scripts/aa-plant.py"
body = body.replace(leaf, """  if (n <= kPairwiseBlock) {
    float sum = 0.0f;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum;
  }""")
wrapper = head + "\n  planted_sum(x, n * 3 / 100);\n  return pairwise_unplanted(x, n);\n}\n"
text = text[:start] + body + "\n" + wrapper + text[end:]
reduce.write_text(text)

bandwidth = root / "kernels/bandwidth.cc"
text = bandwidth.read_text()
old = "void copy_memcpy(float* dst, const float* src, std::size_t n) { std::memcpy(dst, src, n * sizeof(float)); }"
assert old in text, "kernels/bandwidth.cc: copy_memcpy changed; update scripts/aa-plant.py"
text = text.replace(old, """void copy_memcpy(float* dst, const float* src, std::size_t n) {
  std::memcpy(dst, src, n * sizeof(float));
  // Planted by scripts/aa-plant.py: the first twentieth copied again, the same bytes to the same place.
  std::memcpy(dst, src, n / 20 * sizeof(float));
  asm volatile("" : : "r"(dst) : "memory");
}""")
bandwidth.write_text(text)
print(json.dumps({k: v[4] for k, v in PLANTS.items()}))
