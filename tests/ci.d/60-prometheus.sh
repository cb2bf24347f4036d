#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The app's and the node agent's metrics against a real Prometheus (Debian's): a source app
# (MetricsLoadRunner: the app's collector, global loop and exporter on the paper's testbed, INT
# reports over UDP in real time, SFC 2's Snort pushed over its bound until the loop scales it out)
# and a node agent (tools/node-agent on a fake worker with a pcap replay, as 40-agent.sh) are
# scraped every second; promtool checks both outputs; every PromQL target of the Grafana
# dashboard (tools/grafana/srv6int-dashboard.json) is run through Prometheus' HTTP API and must
# return series with sane values. Runs after `mvn install`.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed+1)); echo "ok   $name"; else failed=$((failed+1)); echo "FAIL $name"; fi
}
if ! command -v promtool >/dev/null || ! command -v prometheus >/dev/null; then
  echo "installing Debian's prometheus"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
command -v prometheus >/dev/null || { echo "prometheus not installed"; echo "0 passed, 1 failed"; exit 1; }
AGENT_JAR=$(ls node-agent/target/srv6int-node-agent-*-all.jar 2>/dev/null | head -n1)
if [ ! -d app/target/test-classes ] || [ -z "$AGENT_JAR" ] || [ ! -d node-agent/target/test-classes ]; then
  echo "app test classes or node agent jar missing: run mvn install first"; echo "0 passed, 1 failed"; exit 1
fi
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# --- source 1: the app (test classpath: the testbed's ONOS stand-ins)
mvn -B -ntp -q -pl app dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp.txt" \
  >"$WORK/mvn.log" 2>&1 || { cat "$WORK/mvn.log"; echo "0 passed, 1 failed"; exit 1; }
OPENS=$(sed -n 's:.*<srv6int.jdk17.opens>\(.*\)</srv6int.jdk17.opens>.*:\1:p' pom.xml)
RUN_S=${SRV6INT_PROM_RUN_S:-75}
# shellcheck disable=SC2086
java $OPENS -cp "app/target/test-classes:app/target/classes:$(cat "$WORK/cp.txt")" \
  org.srv6int.app.metrics.MetricsLoadRunner "$WORK/app.port" "$RUN_S" 25 >"$WORK/app.out" 2>&1 &
PIDS+=($!)

# --- source 2: a node agent after a pcap replay
AGENT_PORT=$(free_port)
mapfile -t _ < <(java -cp "$AGENT_JAR:node-agent/target/test-classes" org.srv6int.agent.ReplayFixture \
  "$WORK/agent" "127.0.0.1:$AGENT_PORT")
tools/node-agent --config "$WORK/agent/agent.json" --pcap "$WORK/agent/replay.pcap" >"$WORK/agent.out" 2>&1 &
PIDS+=($!)

for _ in $(seq 1 100); do [ -s "$WORK/app.port" ] && break; sleep 0.3; done
APP_PORT=$(cat "$WORK/app.port" 2>/dev/null)
check "app serves its metrics on a plain port (${APP_PORT:-none})" test -n "$APP_PORT"
scrape() { python3 -c 'import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"; }
for _ in $(seq 1 100); do scrape "http://127.0.0.1:$AGENT_PORT/metrics" >"$WORK/agent.prom" 2>/dev/null \
  && grep -q 'srv6int_node_capture_packets_total{result="matched"} 24000' "$WORK/agent.prom" && break; sleep 0.3; done
sleep 3  # a few telemetry windows
scrape "http://127.0.0.1:$APP_PORT/metrics" >"$WORK/app.prom" 2>/dev/null
check "promtool check metrics: app" promtool check metrics <"$WORK/app.prom"
check "promtool check metrics: node agent" promtool check metrics <"$WORK/agent.prom"

# --- Prometheus scraping both every second
PROM_PORT=$(free_port)
cat >"$WORK/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: srv6int-app
    static_configs:
      - targets: ['127.0.0.1:$APP_PORT']
  - job_name: srv6int-agent
    static_configs:
      - targets: ['127.0.0.1:$AGENT_PORT']
        labels: {node: worker1}
YML
check "promtool check config" promtool check config "$WORK/prometheus.yml" >/dev/null
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
PROM="http://127.0.0.1:$PROM_PORT"
q() { # expr -> first value or empty
  python3 - "$PROM" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
try:
    d = json.load(urllib.request.urlopen(sys.argv[1] + "/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[2]}), timeout=5))
    r = d["data"]["result"]
    print(r[0]["value"][1] if r else "")
except Exception:
    print("")
PY
}
# wait until both targets are up and the loop has scaled SFC 2's Snort out (ramp at 25 s, t-hat 2 s)
scaled=
for _ in $(seq 1 120); do
  up=$(q 'sum(up)')
  scaled=$(q 'srv6int_global_loop_decisions_ended_total{job="srv6int-app",action="scale_out",outcome="succeeded"}')
  [ "$up" = "2" ] && [ -n "$scaled" ] && [ "$scaled" != "0" ] && break
  sleep 1
done
sleep 5 # rates over a few more scrapes
check "both targets up in Prometheus" test "$(q 'sum(up)')" = "2"
check "the scale-out is visible in Prometheus (got ${scaled:-none})" test -n "$scaled" -a "$scaled" != "0"
check "SFC 2's Snort has had 2 active replicas" test "$(q 'max_over_time(sum(srv6int_vnf_replicas{job="srv6int-app",chain="2",state="active"})[5m:1s])')" = "2"
check "SFC 2's Snort violated its bound while loaded" test "$(q 'max_over_time(srv6int_vnf_violating{job="srv6int-app",chain="2",vnf="0"}[5m])')" = "1"
check "a scale-out decision in the last 5 min" test "$(q 'sum(increase(srv6int_global_loop_decisions_total{job="srv6int-app",action="scale_out"}[5m]))')" != "0"
check "every dashboard panel's PromQL returns sane series" tools/grafana/check-dashboard tools/grafana/srv6int-dashboard.json "$PROM"
if [ "$failed" -gt 0 ]; then
  echo "--- app runner"; tail -n 20 "$WORK/app.out"; echo "--- prometheus"; tail -n 10 "$WORK/prometheus.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
