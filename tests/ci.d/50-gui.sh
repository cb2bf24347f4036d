#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Browser test of the SRv6-INT ONOS topology overlay's JavaScript: installs the
# harness's npm packages (angular, playwright-core: exact versions in
# tests/gui/package.json, neither has dependencies) into tests/gui/node_modules (git-ignored) and runs
# tests/gui/overlay.test.mjs in Debian's headless Chromium. It replays
# tests/gui/fixtures/testbed-messages.json, which GuiFixtureTest (run by the
# Maven step before this one) checks is what the Java side sends.
# Screenshots: app/target/gui/overlay*.png.
set -uo pipefail
cd "$(dirname "$0")/../.."
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
fail() { echo "50-gui: $*"; echo "0 passed, 1 failed"; exit 1; }
command -v node >/dev/null || fail "node not found (Node.js 18+ is needed)"
command -v npm >/dev/null || fail "npm not found"
[ -x "$CHROMIUM" ] || fail "$CHROMIUM not found (tools/deps/gui.apt lists Debian's chromium; run tools/setup-deps)"
cd tests/gui
if ! npm install --no-package-lock --no-audit --no-fund --loglevel=error >/tmp/srv6int-gui-npm.log 2>&1; then
  cat /tmp/srv6int-gui-npm.log
  fail "npm install failed"
fi
export CHROMIUM
out=$(mktemp)
timeout 300 node --test --test-reporter=spec overlay.test.mjs 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
pass=$(grep -Eo '(^|[^a-z])pass [0-9]+$' "$out" | grep -Eo '[0-9]+' | tail -1)
failn=$(grep -Eo '(^|[^a-z])fail [0-9]+$' "$out" | grep -Eo '[0-9]+' | tail -1)
rm -f "$out"
if [ "$rc" -ne 0 ] && [ "${failn:-0}" -eq 0 ]; then failn=1; fi
echo "${pass:-0} passed, ${failn:-0} failed"
exit "$rc"
