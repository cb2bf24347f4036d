#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Node agent end to end outside Maven: the packaged jar started as a process
# (tools/node-agent) against a fake worker tree and a pcap replay (both made by
# the test fixture with the codec's encoders), /metrics scraped over HTTP, the
# cgroup files and the decision log checked. Runs after `mvn install`.
set -uo pipefail
cd "$(dirname "$0")/../.."
MOD=node-agent
JAR=$(ls $MOD/target/srv6int-node-agent-*-all.jar 2>/dev/null | head -n1)
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed+1)); echo "ok   $name"; else failed=$((failed+1)); echo "FAIL $name"; fi
}
if [ -z "$JAR" ] || [ ! -d $MOD/target/test-classes ]; then
  echo "node agent jar or test classes missing: run mvn install first"; echo "0 passed, 1 failed"; exit 1
fi
WORK=$(mktemp -d)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
mapfile -t CPU_MAX < <(java -cp "$JAR:$MOD/target/test-classes" org.srv6int.agent.ReplayFixture "$WORK" "127.0.0.1:$PORT")
tools/node-agent --config "$WORK/agent.json" --pcap "$WORK/replay.pcap" >"$WORK/agent.out" 2>"$WORK/agent.err" &
PID=$!
metric() { # prints the value of an exact metric line prefix, or nothing
  python3 - "$PORT" "$1" <<'PY'
import sys, urllib.request
try:
    body = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=2).read().decode()
except Exception:
    sys.exit(0)
for line in body.splitlines():
    if line.startswith(sys.argv[2] + " "):
        print(line.split()[-1])
PY
}
matched=
for _ in $(seq 1 100); do
  matched=$(metric 'srv6int_node_capture_packets_total{result="matched"}')
  [ "$matched" = "24000" ] && break
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.3
done
check "agent process alive after the replay" kill -0 "$PID"
check "24000 Detection Results matched to vNFs (got ${matched:-none})" test "$matched" = "24000"
check "malformed frames counted" test "$(metric 'srv6int_node_capture_packets_total{result="malformed"}')" = "7"
check "unknown SIDs counted" test "$(metric 'srv6int_node_capture_packets_total{result="unknown_vnf"}')" = "20"
check "fwd cpu.max raised to 1.8 CPUs" test "$(cat "${CPU_MAX[0]}")" = "180000 100000"
check "snort cpu.max freed to 0.7 CPUs (one free reverted)" test "$(cat "${CPU_MAX[1]}")" = "70000 100000"
check "allocation metric" test "$(metric 'srv6int_replica_cpu_quota_millicores{chain="1",vnf="1",replica="fwd"}')" = "1800"
check "L95 metric" test "$(metric 'srv6int_replica_latency_p95_seconds{chain="1",vnf="1",replica="fwd"}')" = "0.00192"
check "all four resources offered by the fake host" test "$(metric 'srv6int_node_resource_available{resource="cpu_frequency"}')" = "1"
check "decision log has the revert" grep -q '"action":"REVERT"' "$WORK/decisions.jsonl"
check "start-up says which resources" grep -q 'resources offered by this host: \[cpu_quota, llc, memory_bandwidth, cpu_frequency\]' "$WORK/agent.err"
if [ "$failed" -gt 0 ]; then echo "--- agent stderr"; tail -n 30 "$WORK/agent.err"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
