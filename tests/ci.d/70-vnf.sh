#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Real vNFs (issue 32 item 1): builds vnf/ (forwarder, nDPI DPI, Hyperscan IDS),
# fuzzes the SR-aware parser and the DPI/IDS inspection in-process (plain and
# ASan+UBSan builds), then runs each vNF inline between two veths in a chain of
# network namespaces src -- vnf -- dst and sends bounded sets of SRv6-INT frames
# through it (srv6-blast, 2000 pps):
#   - valid frames (the golden encapsulated frames of tests/vectors, DPI flows,
#     clean payloads, rule-matching payloads) arrive at dst byte-identical, in order;
#   - malformed frames are dropped and counted per decoder reason, frames with a
#     broken inner packet are forwarded and counted as not inspected;
#   - vnf-dpi classifies the flows (DNS, HTTP, NTP, SSH), vnf-ids raises no
#     alert on clean payloads and one per payload carrying a rule's content;
#   - SIGUSR1 writes the counters, SIGTERM ends with final counters and status 0.
# Needs root (namespaces, veths, AF_PACKET). Budget: under 3 min (about 1 min
# on the 2-core CI machine; a watchdog ends the step at 170 s); removes
# everything it made on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: not root (network namespaces, veths and AF_PACKET sockets need root)"
  exit 0
fi
if ! pkg-config --exists libndpi libhs 2>/dev/null; then
  echo "FAIL nDPI / Hyperscan headers missing: run tools/setup-deps (tools/deps/vnf.apt)"
  echo "0 passed, 1 failed"
  exit 1
fi
T=$$
SRC=vnfsrc-$T MID=vnfmid-$T DST=vnfdst-$T
# veths (inside the namespaces): vnfs0 (src) -- vnfin0 [vNF] vnfout0 -- vnfd0 (dst)
( sleep 170; kill -TERM $$ ) >/dev/null 2>&1 &
WATCHDOG=$!
WORK=$(mktemp -d /tmp/srv6int-vnf.XXXXXX)
VNF_PID=
PASS=0 FAIL=0
cleanup() {
  pkill -P "$WATCHDOG" 2>/dev/null || true; kill "$WATCHDOG" 2>/dev/null || true
  if [ -n "$VNF_PID" ]; then kill "$VNF_PID" 2>/dev/null || true; wait "$VNF_PID" 2>/dev/null || true; fi
  for n in "$SRC" "$MID" "$DST"; do ip netns del "$n" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "FAIL watchdog: step over its 170 s budget"; echo "$PASS passed, $((FAIL + 1)) failed"; exit 1' TERM
ok() { echo "ok   $*"; PASS=$((PASS + 1)); }
bad() { echo "FAIL $*"; FAIL=$((FAIL + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
stat() { sed -n "s/^$2=//p" "$1" | tail -n1; }   # stat FILE KEY
quiet() { local out=$1; shift; "$@" >"$out" 2>&1 || { local rc=$?; tail -n 5 "$out" | sed 's/^/  | /'; return $rc; }; }

B=vnf/build
timeout 100 make -s -C vnf >/dev/null
R=$B/rules-5000.rules
PY=python3
F=vnf/frames.py

# --- in-process fuzzing of malformed frames -----------------------------------------------
$PY $F gen seeds "$WORK/seeds.pcap" >/dev/null
$PY $F vectors tests/vectors "$WORK/vectors.pcap" >/dev/null
check "fuzz: 300000 mutated frames, parser invariants hold, DPI/IDS survive" \
  quiet "$WORK/fuzz.out" timeout 60 $B/vnf-fuzz -f "$WORK/seeds.pcap" -r $R -n 300000 -s 1
if timeout 100 make -s -C vnf fuzz-asan >/dev/null 2>&1; then
  check "fuzz (ASan+UBSan build): 30000 mutated frames, no over-read" \
    quiet "$WORK/fuzz-asan.out" timeout 60 $B/vnf-fuzz-asan -f "$WORK/seeds.pcap" -r $R -n 30000 -s 2
else
  echo "note: ASan build not possible here, skipped"
fi
$PY $F gen malformed "$WORK/mal.pcap" >/dev/null
$B/vnf-fuzz -p -f "$WORK/mal.pcap" | paste - "$WORK/mal.pcap.expect" >"$WORK/mal.status"
check "parser: each malformed frame gets its decoder reason" \
  awk '{e=$NF; s=$2; if (e=="forward") k=(s=="OK"); else if (e=="trunc") k=(s!="OK"); else k=(s==e); if (!k) {print "  " $0; bad=1}} END {exit bad}' "$WORK/mal.status"
check "parser: the golden encapsulated frames of tests/vectors all decode" \
  bash -c "$B/vnf-fuzz -p -f '$WORK/vectors.pcap' | awk '\$2!=\"OK\"{b=1} END{exit b}'"

# --- frame sets ----------------------------------------------------------------------------
$PY $F gen dpi "$WORK/dpi.pcap" >/dev/null
$PY $F gen clean "$WORK/clean.pcap" -n 60 >/dev/null
$PY $F gen attack "$WORK/attack.pcap" --samples $B/rules-5000.samples -n 25 >/dev/null
N_MAL=$(cat "$WORK/mal.pcap.wire-drops")   # those the kernel lets us send
N_MAL_FWD=$(grep -c '^forward$' "$WORK/mal.pcap.expect")
N_ATTACK=25

# --- namespaces: src:vnfs0 -- vnfin0:vNF:vnfout0 -- vnfd0:dst ----------------------------------
for n in "$SRC" "$MID" "$DST"; do
  ip netns add "$n"
  ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip -n "$n" link set lo up
done
ip link add vnfs0 netns "$SRC" type veth peer name vnfin0 netns "$MID"
ip link add vnfout0 netns "$MID" type veth peer name vnfd0 netns "$DST"
ip -n "$SRC" link set vnfs0 up; ip -n "$MID" link set vnfin0 up; ip -n "$MID" link set vnfout0 up
ip -n "$DST" link set vnfd0 up
for i in $(seq 50); do   # wait for carrier on both veths
  ip -n "$MID" link show vnfout0 | grep -q 'LOWER_UP' && ip -n "$MID" link show vnfin0 | grep -q 'LOWER_UP' && break
  sleep 0.1
done

start_vnf() { # name args...
  local name=$1; shift
  rm -f "$WORK/$name.stats"
  # ip netns exec execs the vNF: $! is the vNF itself (signals go to it)
  ip netns exec "$MID" "$B/$name" -i vnfin0 -o vnfout0 -s "$WORK/$name.stats" "$@" 2>"$WORK/$name.log" &
  VNF_PID=$!
  for i in $(seq 100); do [ -s "$WORK/$name.stats" ] && return 0; sleep 0.1; done
  echo "  $name did not come up:"; sed 's/^/  | /' "$WORK/$name.log"; return 1
}
dump() { # name -> fresh counters in the stats file
  local name=$1 before; before=$(stat "$WORK/$name.stats" uptime_s)
  kill -USR1 "$VNF_PID"
  for i in $(seq 50); do [ "$(stat "$WORK/$name.stats" uptime_s)" != "$before" ] && return 0; sleep 0.1; done
  return 1
}
send_and_compare() { # label sent.pcap expected.pcap
  local label=$1 sent=$2 exp=$3 n
  n=$($PY -c "import sys; sys.path.insert(0,'vnf'); import frames; print(len(frames.read_pcap('$exp')))")
  rm -f "$WORK/got.pcap" "$WORK/got.pcap.ready"
  ip netns exec "$DST" timeout 20 $PY $F capture vnfd0 "$n" 8 "$WORK/got.pcap" >/dev/null &
  local cap=$!
  for i in $(seq 50); do [ -e "$WORK/got.pcap.ready" ] && break; sleep 0.1; done
  ip netns exec "$SRC" timeout 20 $B/srv6-blast -i vnfs0 -f "$sent" -r 2000 >/dev/null
  wait $cap || true
  check "$label: $n frames at dst byte-identical" $PY $F compare "$exp" "$WORK/got.pcap"
}
stop_vnf() { # name
  local name=$1 rc=0
  kill -TERM "$VNF_PID"; wait "$VNF_PID" || rc=$?
  VNF_PID=
  check "$name: exits 0 on SIGTERM with final counters" \
    bash -c "[ $rc -eq 0 ] && grep -q -- '--- $name stats (exit) ---' '$WORK/$name.log'"
}
common_checks() { # name
  local name=$1 s=$WORK/$1.stats
  send_and_compare "$name malformed" "$WORK/mal.pcap" "$WORK/mal.pcap.fwd.pcap"
  dump "$name"
  check "$name: $N_MAL malformed frames dropped as parse errors, by reason (got $(stat "$s" drop_parse))" \
    bash -c "[ '$(stat "$s" drop_parse)' = '$N_MAL' ] && [ '$(stat "$s" drop_parse.UNKNOWN_TLV)' = 1 ] && [ '$(stat "$s" drop_parse.MAPINFO_BITS_WITHOUT_FIELD)' = 1 ]"
  check "$name: $N_MAL_FWD frames with a broken inner packet forwarded, counted not inspected" \
    bash -c "[ \$(( $(stat "$s" not_inspected.NOT_IP) + $(stat "$s" not_inspected.TRUNCATED_IP) + $(stat "$s" not_inspected.BAD_IP_HEADER) )) -eq $N_MAL_FWD ]"
  check "$name: no ring or tx drops" \
    bash -c "[ '$(stat "$s" drop_rx_ring_full)' = 0 ] && [ '$(stat "$s" drop_tx_ring_full)' = 0 ] && [ '$(stat "$s" drop_tx_error)' = 0 ]"
}

# --- vnf-fwd -------------------------------------------------------------------------------
start_vnf vnf-fwd
send_and_compare "vnf-fwd golden vectors" "$WORK/vectors.pcap" "$WORK/vectors.pcap"
send_and_compare "vnf-fwd DPI flows" "$WORK/dpi.pcap" "$WORK/dpi.pcap"
common_checks vnf-fwd
stop_vnf vnf-fwd

# --- vnf-dpi -------------------------------------------------------------------------------
start_vnf vnf-dpi
send_and_compare "vnf-dpi DPI flows" "$WORK/dpi.pcap" "$WORK/dpi.pcap"
dump vnf-dpi
S=$WORK/vnf-dpi.stats
check "vnf-dpi: DNS (IPv4 and IPv6 inner) classified (got $(stat "$S" dpi_proto.DNS))" bash -c "[ '$(stat "$S" dpi_proto.DNS)' = 2 ]"
check "vnf-dpi: HTTP (IPv4 and IPv6 inner) classified" bash -c "[ '$(stat "$S" dpi_proto.HTTP)' = 2 ]"
check "vnf-dpi: NTP and SSH classified" bash -c "[ '$(stat "$S" dpi_proto.NTP)' = 1 ] && [ '$(stat "$S" dpi_proto.SSH)' = 1 ]"
check "vnf-dpi: >= 6 of 8 flows classified by payload (got $(stat "$S" dpi_flows_classified))" bash -c "[ '$(stat "$S" dpi_flows_classified)' -ge 6 ]"
common_checks vnf-dpi
stop_vnf vnf-dpi
grep '^dpi_' "$WORK/vnf-dpi.stats" | sed 's/^/  | /'

# --- vnf-ids -------------------------------------------------------------------------------
start_vnf vnf-ids -r $R
send_and_compare "vnf-ids clean payloads" "$WORK/clean.pcap" "$WORK/clean.pcap"
send_and_compare "vnf-ids DPI flows" "$WORK/dpi.pcap" "$WORK/dpi.pcap"
dump vnf-ids
S=$WORK/vnf-ids.stats
check "vnf-ids: 5000 rules loaded" bash -c "[ '$(stat "$S" ids_rules)' = 5000 ]"
check "vnf-ids: no alert on clean payloads ($(stat "$S" ids_pkts_scanned) scanned)" \
  bash -c "[ '$(stat "$S" ids_pkts_alert)' = 0 ] && [ '$(stat "$S" ids_pkts_scanned)' -ge 60 ]"
send_and_compare "vnf-ids rule-matching payloads" "$WORK/attack.pcap" "$WORK/attack.pcap"
dump vnf-ids
check "vnf-ids: an alert for each of the $N_ATTACK payloads with a rule's content" \
  bash -c "[ '$(stat "$S" ids_pkts_alert)' = $N_ATTACK ]"
missing=0
while read -r id; do grep -q "^ids_rule\.$id=" "$S" || { echo "  rule $id did not match"; missing=1; }; done <"$WORK/attack.pcap.ids"
check "vnf-ids: the very rules whose content was sent matched (canary rule 1 among them)" [ $missing -eq 0 ]
common_checks vnf-ids
stop_vnf vnf-ids
grep -E '^ids_(rules|compile|pkts|matches)' "$WORK/vnf-ids.stats" | sed 's/^/  | /'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
