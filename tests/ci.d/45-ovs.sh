#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SID -> pod wiring on a real Open vSwitch (issue 16 item 2), crossed by traffic.
# A network namespace stands for the worker: a private ovsdb-server and
# ovs-vswitchd --disable-system (userspace datapath, no kernel module) with
# their own database and sockets in a temp dir, a veth pair nic0/sw0 standing
# for the NIC and the switch behind it, and two pod namespaces whose eth0 runs
# tools/wiring/pod-echo (returns what it receives, marked with its own MAC).
# WiringCrossCheck (agent test classes) wires two SIDs with OvsSidWiring,
# sends SRv6-INT frames to each SID from sw0 and checks which pod returns them,
# then unwires one, flushes the rules and restarts ovs-vswitchd, reconciling
# each time. PodInterfacesCheck finds the two pods' host veths by netlink as the
# DaemonSet's agent does (CAP_NET_ADMIN + CAP_NET_RAW only, its own PID
# namespace, no /proc of the host) and is refused with no capability. Then PodWiringCrossCheck joins it all on the real control plane
# (tools/k8s-testenv, started here: kube-apiserver + KWOK): the node agent with
# its OVS wiring and live capture on nic0, replica pods created through the API
# and standing for the two pod namespaces (each with the network-status annotation
# Multus would write: its eth0's MAC), traffic per SID, a resize through the API on
# Detection Results over a bound, an overwrite re-applied, a deleted pod's
# wiring and allocation gone; then the same in recommend mode (nothing changes).
# Needs root; installs openvswitch-switch if missing. Runs after `mvn install`.
# Everything it made is removed on exit.
set -uo pipefail
cd "$(dirname "$0")/../.."
MOD=node-agent
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: not root (network namespaces, veths and OVS's userspace datapath need root)"
  exit 0
fi
if ! command -v ovs-vswitchd >/dev/null; then
  echo "installing openvswitch-switch"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    openvswitch-switch >/dev/null || { echo "cannot install openvswitch-switch"; echo "0 passed, 1 failed"; exit 1; }
fi
JAR=$(ls $MOD/target/srv6int-node-agent-*-all.jar 2>/dev/null | head -n1)
if [ -z "$JAR" ] || [ ! -d $MOD/target/test-classes/org/srv6int/agent/wiring ]; then
  echo "node agent jar or test classes missing: run mvn install first"; echo "0 passed, 1 failed"; exit 1
fi
T=$$
NODE=srv6int-node-$T
PODS=(srv6int-pa-$T srv6int-pb-$T)
WORK=$(mktemp -d /tmp/srv6int-ovs.XXXXXX)
ECHO_PIDS=()
TESTENV=$(pwd)/tools/k8s-testenv
K8S_STARTED=
cleanup() {
  [ -n "$K8S_STARTED" ] && "$TESTENV/stop" >/dev/null 2>&1
  for p in "${ECHO_PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  for d in ovs-vswitchd ovsdb-server; do # WiringCrossCheck stops them; this is for a crash
    [ -f "$WORK/ovs/$d.pid" ] && kill "$(cat "$WORK/ovs/$d.pid")" 2>/dev/null
  done
  for n in "$NODE" "${PODS[@]}"; do ip netns del "$n" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/ovs"
no_ipv6() { ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1; }
set -e
ip netns add "$NODE"; no_ipv6 "$NODE"; ip -n "$NODE" link set lo up
ip -n "$NODE" link add sw0 type veth peer name nic0
ip -n "$NODE" link set sw0 up; ip -n "$NODE" link set nic0 up
MACS=()
for i in 0 1; do
  P=${PODS[$i]}; H=pod$i
  ip netns add "$P"; no_ipv6 "$P"
  ip -n "$NODE" link add "$H" type veth peer name eth0 netns "$P"
  ip -n "$NODE" link set "$H" up; ip -n "$P" link set eth0 up
  MACS+=("$(ip netns exec "$P" cat /sys/class/net/eth0/address)")
  ip netns exec "$P" python3 tools/wiring/pod-echo eth0 300 >"$WORK/echo-$i.log" 2>&1 &
  ECHO_PIDS+=($!)
done
set +e
for i in 0 1; do # the forwarders are listening before any frame is sent
  for _ in $(seq 1 50); do grep -q up "$WORK/echo-$i.log" && break; sleep 0.1; done
done
timeout 300 ip netns exec "$NODE" java -cp "$JAR:$MOD/target/test-classes" org.srv6int.agent.wiring.WiringCrossCheck \
  "$WORK/ovs" sfc-br nic0 sw0 fc00:2::10 pod0 "${MACS[0]}" fc00:2::20 pod1 "${MACS[1]}" | tee "$WORK/wiring.out"
rc=${PIPESTATUS[0]}
if [ $rc -ne 0 ]; then
  echo "--- ovs-vswitchd log"; tail -n 20 "$WORK/ovs/ovs-vswitchd.log"
  cat "$WORK"/echo-*.log
fi
read -r p1 _ f1 _ < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$WORK/wiring.out" | tail -n1)
# The pods' host veths found as the DaemonSet's agent finds them (no hostPID, no SYS_PTRACE, no
# /proc): PodInterfacesCheck in the worker's namespace, in a PID namespace of its own, with
# CAP_NET_ADMIN and CAP_NET_RAW only (it checks both), by the MACs a network-status annotation
# carries; then with no capability at all, where the kernel must refuse (EACCES). ~2 s.
CP="$JAR:$MOD/target/test-classes"
lookup() { # CAPEFF ARGS...: the check with exactly those capabilities, as root in its own PID namespace
  local caps=$1; shift
  timeout 120 ip netns exec "$NODE" unshare --pid --fork --mount-proc \
    setpriv --inh-caps=-all --bounding-set=-all${caps:+,$caps} \
    java -cp "$CP" org.srv6int.agent.wiring.PodInterfacesCheck "$@"
}
lookup +net_admin,+net_raw 3000 eth0 pod0 "${MACS[0]}" pod1 "${MACS[1]}" | tee "$WORK/lookup.out"
lookup "" --expect-eacces 0 eth0 pod0 "${MACS[0]}" | tee -a "$WORK/lookup.out"
p0=$(grep -cE '^ok ' "$WORK/lookup.out"); f0=$(grep -cE '^FAIL ' "$WORK/lookup.out")
[ "$(grep -cE '^[0-9]+ passed' "$WORK/lookup.out")" -eq 2 ] || f0=$((f0 + 1)) # both runs reached their summary
p1=$(( ${p1:-0} + p0 )); f1=$(( ${f1:-1} + f0 ))
[ "$f0" -eq 0 ] || rc=1
# The joints crossed: control plane, agent, OVS, pods. The control plane runs in the
# worker's namespace (its 127.0.0.1 is the agent's; nothing collides with a control plane
# of the host's). 30-k8s built its binaries; SRV6INT_K8S_* (tools/k8s-testenv/env.sh)
# choose ports and run directory.
export SRV6INT_K8S_RUN=${SRV6INT_K8S_RUN:-$WORK/k8s}
. "$TESTENV/env.sh"
"$TESTENV/stop" >/dev/null 2>&1
K8S_STARTED=1
if ! ip netns exec "$NODE" "$TESTENV/start" >"$WORK/k8s-start.log" 2>&1; then
  cat "$WORK/k8s-start.log"; echo "45-ovs: control plane did not start"
  echo "${p1:-0} passed, $(( ${f1:-1} + 1 )) failed"; exit 1
fi
mkdir -p "$WORK/ovs2"
timeout 300 ip netns exec "$NODE" java -cp "$JAR:$MOD/target/test-classes" \
  org.srv6int.agent.pods.PodWiringCrossCheck "$WORK/ovs2" sfc-br2 nic0 sw0 "$K8S_RUN/admin.kubeconfig" \
  k8s-bridge/deploy "${ECHO_PIDS[0]}" "${MACS[0]}" "${ECHO_PIDS[1]}" "${MACS[1]}" 2>&1 | tee "$WORK/joints.out" \
  | grep -E '^(ok|FAIL|---|[0-9]+ passed)|Exception'
rc2=${PIPESTATUS[0]}
if [ $rc2 -ne 0 ]; then
  echo "--- agent output (last 40 lines)"; tail -n 40 "$WORK/joints.out"
  echo "--- ovs-vswitchd log"; tail -n 20 "$WORK/ovs2/ovs-vswitchd.log"
fi
read -r p2 _ f2 _ < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$WORK/joints.out" | tail -n1)
[ -z "${p2:-}" ] && { p2=0; f2=1; }
echo "$(( ${p1:-0} + p2 )) passed, $(( ${f1:-1} + f2 )) failed"
[ $rc -eq 0 ] && [ $rc2 -eq 0 ]
