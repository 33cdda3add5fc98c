#!/usr/bin/env bash
# The report page as a person sees it: headless Chromium (Debian's `chromium` package) renders
# a report's index.html to a PNG, the top HEIGHT pixels of a WIDTH-wide window (the summary,
# the machines and the first plots).
# Usage: scripts/screenshot-report.sh REPORT_DIR|INDEX.html OUT.png [WIDTH [HEIGHT]]
#   e.g. tools/nbk-report build/openmp/runs/<name> results/h100-4ae6697 --out build/compare
#        scripts/screenshot-report.sh build/compare build/compare/screenshot.png
# Exit status: 0 written, 2 bad arguments or no page, 3 no chromium here, 1 chromium failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.sh"

usage="usage: scripts/screenshot-report.sh REPORT_DIR|INDEX.html OUT.png [WIDTH [HEIGHT]]"
(($# >= 2 && $# <= 4)) || usage_error "$usage"
page="$1" out="$2" width="${3:-1400}" height="${4:-2000}"
[[ -d "$page" ]] && page="$page/index.html"
[[ -f "$page" ]] || usage_error "$page: no such page"
[[ "$width$height" =~ ^[0-9]+$ ]] || usage_error "WIDTH and HEIGHT are pixels ($usage)"
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -z "$browser" ]]; then
  log "no chromium (apt-get install chromium): no screenshot"
  exit 3
fi
mkdir -p "$(dirname "$out")"
# --no-sandbox: Chromium refuses to run as root without it (CI containers run as root).
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$(mktemp -d)" --window-size="$width,$height" --virtual-time-budget=5000 \
  --screenshot="$(realpath -m "$out")" "file://$(realpath "$page")" >/dev/null 2>&1 ||
  { log "chromium failed on $page"; exit 1; }
[[ -s "$out" ]] || { log "chromium wrote no $out"; exit 1; }
log "wrote $out (${width}x$height of $page)"
