#!/usr/bin/env bash
# SID -> pod wiring on a real Open vSwitch (issue 16 item 2), crossed by traffic.
# A network namespace stands for the worker: a private ovsdb-server and
# ovs-vswitchd --disable-system (userspace datapath, no kernel module) with
# their own database and sockets in a temp dir, a veth pair nic0/sw0 standing
# for the NIC and the switch behind it, and two pod namespaces whose eth0 runs
# tools/wiring/pod-echo (returns what it receives, marked with its own MAC).
# WiringCrossCheck (agent test classes) wires two SIDs with OvsSidWiring,
# sends SRv6-INT frames to each SID from sw0 and checks which pod returns them,
# then unwires one, flushes the rules and restarts ovs-vswitchd, reconciling
# each time. Needs root; installs openvswitch-switch if missing. Runs after
# `mvn install`. Everything it made is removed on exit.
set -uo pipefail
cd "$(dirname "$0")/../.."
MOD=k8s-bridge/agent
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
if [ -z "$JAR" ] || [ ! -d $MOD/target/test-classes/org/srv6int/k8s/agent/wiring ]; then
  echo "node agent jar or test classes missing: run mvn install first"; echo "0 passed, 1 failed"; exit 1
fi
T=$$
NODE=srv6int-node-$T
PODS=(srv6int-pa-$T srv6int-pb-$T)
WORK=$(mktemp -d /tmp/srv6int-ovs.XXXXXX)
ECHO_PIDS=()
cleanup() {
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
  ip netns exec "$P" python3 tools/wiring/pod-echo eth0 120 >"$WORK/echo-$i.log" 2>&1 &
  ECHO_PIDS+=($!)
done
set +e
for i in 0 1; do # the forwarders are listening before any frame is sent
  for _ in $(seq 1 50); do grep -q up "$WORK/echo-$i.log" && break; sleep 0.1; done
done
timeout 300 ip netns exec "$NODE" java -cp "$JAR:$MOD/target/test-classes" org.srv6int.k8s.agent.wiring.WiringCrossCheck \
  "$WORK/ovs" sfc-br nic0 sw0 fc00:2::10 pod0 "${MACS[0]}" fc00:2::20 pod1 "${MACS[1]}"
rc=$?
if [ $rc -ne 0 ]; then
  echo "--- ovs-vswitchd log"; tail -n 20 "$WORK/ovs/ovs-vswitchd.log"
  cat "$WORK"/echo-*.log
fi
exit $rc
