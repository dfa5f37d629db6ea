#!/usr/bin/env bash
# The gbx tool is a record tool: neither its dynamic libraries (ldd) nor its own symbols (nm, for a
# static link) include Google Benchmark or CUDA. usage: record_tool_links_test.sh GBX_BINARY
set -euo pipefail
gbx=$1
libraries=$(ldd "$gbx")
echo "$libraries"
if grep -Eiq 'libbenchmark|libcudart|libcuda\.|libcublas|libnvidia' <<<"$libraries"; then
  echo "record_tool_links: $gbx links Google Benchmark or CUDA (see ldd above)" >&2
  exit 1
fi
symbols=$(nm -C "$gbx" | grep -E ' [TtWwBbDdRr] ' | grep -Ec 'benchmark::|cuda[A-Z]' || true)
if ((symbols > 0)); then
  echo "record_tool_links: $gbx holds $symbols Google Benchmark or CUDA symbols:" >&2
  nm -C "$gbx" | grep -E 'benchmark::|cuda[A-Z]' | head -5 >&2
  exit 1
fi
echo "record_tool_links: $gbx links neither Google Benchmark nor CUDA"
