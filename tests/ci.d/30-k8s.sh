#!/usr/bin/env bash
# CI step: the Kubernetes bridge against a real control plane on 127.0.0.1
# (tools/k8s-testenv: kube-apiserver/controller-manager/scheduler v1.36.3, etcd,
# kwok nodes worker1/worker2). Builds the control plane on the first run (cached in
# ~/.cache/srv6int-k8s), starts it, runs RealApiServerTest (already compiled by
# tools/test-all's `mvn install`), stops it. Skipped tests count as failures here.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
TESTENV=$ROOT/tools/k8s-testenv
. "$TESTENV/env.sh"
t0=$SECONDS
trap '"$TESTENV/stop" >/dev/null 2>&1' EXIT
"$TESTENV/stop" >/dev/null 2>&1 # a leftover from an interrupted run
if ! "$TESTENV/start"; then
  echo "30-k8s: control plane did not start; logs:"; tail -n 20 "$K8S_RUN"/log/*.log 2>/dev/null
  echo "0 passed, 1 failed"; exit 1
fi
REPORTS=$ROOT/k8s-bridge/bridge/target/surefire-reports
rm -f "$REPORTS"/TEST-org.srv6int.k8s.bridge.RealApiServerTest.xml
mvn -B -ntp -q -pl k8s-bridge/bridge surefire:test -Dtest=RealApiServerTest -DfailIfNoTests=false \
  -Dsrv6int.kubeconfig="$K8S_RUN/bridge.kubeconfig" -Dsrv6int.admin.kubeconfig="$K8S_RUN/admin.kubeconfig" \
  -Dsrv6int.k8s.testenv="$TESTENV"
rc=$?
xml=$REPORTS/TEST-org.srv6int.k8s.bridge.RealApiServerTest.xml
if [ ! -f "$xml" ]; then
  echo "30-k8s: no test report (mvn exit $rc)"; echo "0 passed, 1 failed"; exit 1
fi
read -r tests failures errors skipped < <(python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print(r.get("tests"), r.get("failures"), r.get("errors"), r.get("skipped"))
PY
)
bad=$((failures + errors + skipped))
[ "$bad" -gt 0 ] && grep -h -B1 -A3 "<failure\|<error\|<skipped" "$xml" | head -40
echo "30-k8s: $tests tests against the real control plane in $((SECONDS - t0)) s (incl. start/build)"
echo "$((tests - bad)) passed, $bad failed"
[ "$rc" -eq 0 ] && [ "$bad" -eq 0 ]
