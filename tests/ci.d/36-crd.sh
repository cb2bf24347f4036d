#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI step: the ServiceFunctionChain CRD (k8s-bridge/deploy/crd, docs/crd.md) on a real
# kube-apiserver (tools/k8s-testenv, started fresh here and stopped at the end): runs
# ServiceFunctionChainCrdTest (apply + Established, admitted and refused cases with 422 naming
# the field, status subresource, printer columns), SfcCrdInStepTest (the CRD against the app's
# constants and REST codec; no cluster), WorkQueueTest and ChainControllerTest (the controller with
# the bridge's RBAC: ownerReference, finalizer, garbage collection, status write rate of 100
# chains) and the app's ChainCrdEndToEndTest (an object drives the app's real managers: programmed,
# status as the loop scales out, Events, deletion; it prints `kubectl get sfc -o wide` and
# `kubectl describe sfc`, shown below), all compiled by tools/test-all's `mvn install`, then shows
# `kubectl get sfc -o wide` for the example. Skipped tests count as failures here.
# Budget: about 2 min warm (control plane 10 s, the controller tests ~70 s, the app's ~30 s).
# The control plane's ports and run directory come from env.sh (SRV6INT_K8S_RUN,
# SRV6INT_K8S_APISERVER_PORT, ... override them when another one is running).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
TESTENV=$ROOT/tools/k8s-testenv
. "$TESTENV/env.sh"
. "$ROOT/tests/ci.d/lib/reports.sh"
t0=$SECONDS
trap '"$TESTENV/stop" >/dev/null 2>&1' EXIT
"$TESTENV/stop" >/dev/null 2>&1 # a leftover from an interrupted run
if ! "$TESTENV/start"; then
  echo "36-crd: control plane did not start; logs:"; tail -n 20 "$K8S_RUN"/log/*.log 2>/dev/null
  echo "0 passed, 1 failed"; exit 1
fi
CRD_XML=$ROOT/k8s-bridge/bridge/target/surefire-reports/TEST-org.srv6int.k8s.bridge.crd.ServiceFunctionChainCrdTest.xml
STEP_XML=$ROOT/tests/target/surefire-reports/TEST-org.srv6int.tests.crd.SfcCrdInStepTest.xml
QUEUE_XML=$ROOT/k8s-bridge/bridge/target/surefire-reports/TEST-org.srv6int.k8s.bridge.crd.WorkQueueTest.xml
CTRL_XML=$ROOT/k8s-bridge/bridge/target/surefire-reports/TEST-org.srv6int.k8s.bridge.crd.ChainControllerTest.xml
E2E_XML=$ROOT/app/target/surefire-reports/TEST-org.srv6int.app.crd.ChainCrdEndToEndTest.xml
E2E_OUT=$ROOT/app/target/surefire-reports/org.srv6int.app.crd.ChainCrdEndToEndTest-output.txt
rm -f "$CRD_XML" "$STEP_XML" "$QUEUE_XML" "$CTRL_XML" "$E2E_XML" "$E2E_OUT"
mvn -B -ntp -q -fn -pl k8s-bridge/bridge,tests,app surefire:test \
  -Dtest=ServiceFunctionChainCrdTest,SfcCrdInStepTest,WorkQueueTest,ChainControllerTest,ChainCrdEndToEndTest \
  -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsrv6int.admin.kubeconfig="$K8S_RUN/admin.kubeconfig" -Dsrv6int.kubeconfig="$K8S_RUN/bridge.kubeconfig"
rc=$?
# What an operator sees while the chain is scaled out, and the measured write rate.
[ -f "$E2E_OUT" ] && sed -n '/ChainCrdEndToEndTest: kubectl get sfc/,/ChainCrdEndToEndTest: controller counters/p' "$E2E_OUT"
grep -h "ChainControllerTest:" "$ROOT"/k8s-bridge/bridge/target/surefire-reports/*ChainControllerTest-output.txt 2>/dev/null
total=0; bad_total=0
count_reports 36-crd "$CRD_XML" "$STEP_XML" "$QUEUE_XML" "$CTRL_XML" "$E2E_XML"
# The example as an operator sees it (the CRD is applied by the test).
KC=(--kubeconfig "$K8S_RUN/admin.kubeconfig")
if kubectl "${KC[@]}" create namespace sfc-crd-ci >/dev/null && \
   kubectl "${KC[@]}" apply -n sfc-crd-ci -f "$ROOT/k8s-bridge/deploy/crd/example.yaml" >/dev/null && \
   kubectl "${KC[@]}" get sfc -n sfc-crd-ci -o wide; then
  total=$((total + 1))
else
  echo "36-crd: the example was not admitted"; total=$((total + 1)); bad_total=$((bad_total + 1))
fi
echo "36-crd: $total tests in $((SECONDS - t0)) s (incl. control plane start)"
echo "$((total - bad_total)) passed, $bad_total failed"
[ "$bad_total" -eq 0 ]
