#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The testbed twin's report page: runs two short scenarios into one output root (fig8 without
# vertical scaling; fig9 with all three policies and --repeat 2, which adds the interval plot),
# then checks out/index.html in Debian's headless Chromium (tests/gui/report.test.mjs: renders,
# every image loads, every link resolves, no console error). Uses the playwright-core that
# 50-gui installs into tests/gui/node_modules. Page screenshot: <out>/index-screenshot.png.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
fail() { echo "55-twin-report: $*"; echo "0 passed, 1 failed"; exit 1; }
command -v node >/dev/null || fail "node not found (Node.js 18+ is needed)"
[ -x "$CHROMIUM" ] || fail "$CHROMIUM not found (tools/deps/gui.apt lists Debian's chromium; run tools/setup-deps)"
if [ ! -d tests/gui/node_modules/playwright-core ]; then
  (cd tests/gui && npm install --no-package-lock --no-audit --no-fund --loglevel=error) >/tmp/srv6int-report-npm.log 2>&1 \
    || { cat /tmp/srv6int-report-npm.log; fail "npm install failed"; }
fi
OUT=$ROOT/twin/target/report-ci
rm -rf "$OUT"
t0=$SECONDS
tools/twin fig8 --policy none --out "$OUT" </dev/null || fail "tools/twin fig8 failed"
tools/twin fig9 --repeat 2 --out "$OUT" </dev/null || fail "tools/twin fig9 failed"
echo "55-twin-report: twin runs took $((SECONDS - t0)) s"
export CHROMIUM REPORT=$OUT/index.html REPORT_SCENARIOS=fig8,fig9
log=$(mktemp)
(cd tests/gui && timeout 120 node --test --test-reporter=spec report.test.mjs) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
pass=$(grep -Eo '(^|[^a-z])pass [0-9]+$' "$log" | grep -Eo '[0-9]+' | tail -1)
failn=$(grep -Eo '(^|[^a-z])fail [0-9]+$' "$log" | grep -Eo '[0-9]+' | tail -1)
rm -f "$log"
if [ "$rc" -ne 0 ] && [ "${failn:-0}" -eq 0 ]; then failn=1; fi
echo "${pass:-0} passed, ${failn:-0} failed"
exit "$rc"
