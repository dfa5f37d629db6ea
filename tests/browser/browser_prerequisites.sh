# Sourced by the browser tests: exits 77, which CTest reports as skipped, naming what is missing.
# scripts/test installs all of it, so in CI the tests run.
gbx_require_browser() {
  local node_modules=$1 missing=()
  command -v node >/dev/null || missing+=("node (Debian's nodejs)")
  [[ -x /usr/bin/chromium ]] || missing+=("/usr/bin/chromium (Debian's chromium)")
  [[ -d $node_modules/playwright-core ]] || missing+=("$node_modules/playwright-core (npm ci --prefix report)")
  if ((${#missing[@]} > 0)); then
    echo "SKIPPED: the browser test needs what is missing here; ./scripts/test installs it:"
    printf '  %s\n' "${missing[@]}"
    exit 77
  fi
}
