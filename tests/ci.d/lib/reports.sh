# SPDX-License-Identifier: Apache-2.0
# Sourced by the CI steps that run JUnit classes and read their surefire reports (30-k8s, 36-crd);
# not a step itself (tools/test-all runs tests/ci.d/*.sh only, not this directory).
#   count_reports STEP XML...   adds each report's tests to $total and its failures + errors +
#                               skipped to $bad_total (skipped counts as failed: a step's tests
#                               must run); a missing report counts as one failed test.
# Uses $rc (mvn's exit code) in the message for a missing report. Needs python3.
count_reports() {
  local step=$1 xml tests failures errors skipped bad
  shift
  for xml in "$@"; do
    if [ ! -f "$xml" ]; then
      echo "$step: no test report $xml (mvn exit ${rc:-?})"; total=$((total + 1)); bad_total=$((bad_total + 1)); continue
    fi
    read -r tests failures errors skipped < <(python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print(r.get("tests"), r.get("failures"), r.get("errors"), r.get("skipped"))
PY
)
    bad=$((failures + errors + skipped))
    [ "$bad" -gt 0 ] && grep -h -B1 -A3 "<failure\|<error\|<skipped" "$xml" | head -40
    total=$((total + tests)); bad_total=$((bad_total + bad))
  done
}
