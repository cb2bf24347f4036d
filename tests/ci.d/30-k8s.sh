#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI step: the Kubernetes bridge against a real control plane on 127.0.0.1
# (tools/k8s-testenv: kube-apiserver/controller-manager/scheduler v1.36.3, etcd,
# kwok nodes worker1/worker2). Builds the control plane on the first run (cached in
# ~/.cache/srv6int-k8s), starts it, runs RealApiServerTest, the app's KubernetesEndToEndTest
# (the app's managers and loop with the real bridge), the twin's RealKubernetesTest (--k8s real,
# attached to this control plane) and KubernetesDataplaneTest (the app, the bridge and emulated
# switches carrying traffic to the new replica's pod), the node agent's
# AgentOnRealApiServerTest, the app's AgentIdentityOnRealApiServerTest (agents' pod-bound tokens
# reviewed by the app, refused for another node), the bridge's ReplicaPodSecurityTest (replica pods
# under Pod Security restricted; all compiled by tools/test-all's `mvn install`) and the
# deployment manifests' checks (k8s-bridge/deploy/check-manifests: server-side dry-run,
# Pod Security levels, the agent's RBAC), the cluster module's LoopFaultsTest (three ClusterMember
# JVMs over Atomix running the whole app core with this control plane as their replica platform:
# kill -9 of the leader mid scale-out, a member restarted with its data wiped; ~2 min on 2 loaded
# cores), stops it. Skipped tests count as failures here.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
TESTENV=$ROOT/tools/k8s-testenv
# kwok's stages as Stage objects on the API server: the twin's test sets the pod start-up delay.
export SRV6INT_K8S_KWOK_STAGES=crd
. "$TESTENV/env.sh"
. "$ROOT/tests/ci.d/lib/reports.sh"
t0=$SECONDS
trap '"$TESTENV/stop" >/dev/null 2>&1' EXIT
"$TESTENV/stop" >/dev/null 2>&1 # a leftover from an interrupted run
if ! "$TESTENV/start"; then
  echo "30-k8s: control plane did not start; logs:"; tail -n 20 "$K8S_RUN"/log/*.log 2>/dev/null
  echo "0 passed, 1 failed"; exit 1
fi
# Both test classes in one Maven run (one JVM start-up less); each module runs its own.
BRIDGE_XML=$ROOT/k8s-bridge/bridge/target/surefire-reports/TEST-org.srv6int.k8s.bridge.RealApiServerTest.xml
APP_XML=$ROOT/app/target/surefire-reports/TEST-org.srv6int.app.k8s.KubernetesEndToEndTest.xml
TWIN_REPORTS=$ROOT/twin/target/surefire-reports
TWIN_XML=$TWIN_REPORTS/TEST-org.srv6int.twin.k8s.RealKubernetesTest.xml
JOINTS_XML=$TWIN_REPORTS/TEST-org.srv6int.twin.k8s.KubernetesDataplaneTest.xml
AGENT_XML=$ROOT/node-agent/target/surefire-reports/TEST-org.srv6int.agent.pods.AgentOnRealApiServerTest.xml
IDENTITY_XML=$ROOT/app/target/surefire-reports/TEST-org.srv6int.app.auth.AgentIdentityOnRealApiServerTest.xml
PSA_XML=$ROOT/k8s-bridge/bridge/target/surefire-reports/TEST-org.srv6int.k8s.bridge.ReplicaPodSecurityTest.xml
LOOPFAULTS_XML=$ROOT/cluster/target/surefire-reports/TEST-org.srv6int.cluster.LoopFaultsTest.xml
rm -f "$BRIDGE_XML" "$APP_XML" "$TWIN_XML" "$JOINTS_XML" "$AGENT_XML" "$IDENTITY_XML" "$PSA_XML" "$LOOPFAULTS_XML"
# -fn: a failing module does not keep the others' tests from running (-fae would skip the modules
# that depend on it); the verdict comes from each module's report below, not from mvn's exit code.
mvn -B -ntp -q -fn -pl k8s-bridge/bridge,app,twin,node-agent,cluster surefire:test \
  -Dtest=RealApiServerTest,KubernetesEndToEndTest,RealKubernetesTest,KubernetesDataplaneTest,AgentOnRealApiServerTest,AgentIdentityOnRealApiServerTest,ReplicaPodSecurityTest,LoopFaultsTest \
  -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsrv6int.kubeconfig="$K8S_RUN/bridge.kubeconfig" -Dsrv6int.admin.kubeconfig="$K8S_RUN/admin.kubeconfig" \
  -Dsrv6int.k8s.testenv="$TESTENV" -Dsrv6int.twin.kubeconfig="$K8S_RUN/admin.kubeconfig"
rc=$?
total=0; bad_total=0
count_reports 30-k8s "$BRIDGE_XML" "$APP_XML" "$TWIN_XML" "$JOINTS_XML" "$AGENT_XML" "$IDENTITY_XML" "$PSA_XML" "$LOOPFAULTS_XML"
# The deployment manifests against this API server.
"$ROOT/k8s-bridge/deploy/check-manifests" "$K8S_RUN/admin.kubeconfig" | tee "$K8S_RUN/check-manifests.out"
mrc=${PIPESTATUS[0]}
read -r mpass _ mfail _ < <(tail -n1 "$K8S_RUN/check-manifests.out")
total=$((total + ${mpass:-0} + ${mfail:-1})); bad_total=$((bad_total + ${mfail:-1}))
[ "$mrc" -ne 0 ] && [ "${mfail:-0}" -eq 0 ] && bad_total=$((bad_total + 1))
# The start-up delay as the twin saw it (wall and simulated time).
grep -h "^RealKubernetesTest:" "$TWIN_REPORTS/org.srv6int.twin.k8s.RealKubernetesTest-output.txt" 2>/dev/null
# What the app's loop did on the real API server, and the traffic that reached the new replica.
grep -h "^KubernetesEndToEndTest:" "$ROOT/app/target/surefire-reports/org.srv6int.app.k8s.KubernetesEndToEndTest-output.txt" 2>/dev/null
grep -h "^KubernetesDataplaneTest:" "$TWIN_REPORTS/org.srv6int.twin.k8s.KubernetesDataplaneTest-output.txt" 2>/dev/null
grep -h "^loopfaults:" "$ROOT/cluster/target/surefire-reports/org.srv6int.cluster.LoopFaultsTest-output.txt" 2>/dev/null
grep -h "^AgentIdentityOnRealApiServerTest:" "$ROOT/app/target/surefire-reports/org.srv6int.app.auth.AgentIdentityOnRealApiServerTest-output.txt" 2>/dev/null
echo "30-k8s: $total tests against the real control plane in $((SECONDS - t0)) s (incl. start/build)"
echo "$((total - bad_total)) passed, $bad_total failed"
[ "$bad_total" -eq 0 ]
