#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Codec CI step (after `mvn install`, which ran the codec's JUnit tests, fuzzing
# and the vector regeneration check): independent checks of the golden vectors
# with scapy and with the Wireshark Lua dissector under tshark, plus a smoke run
# of the command-line tools. Run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=tools/.venv/bin/python
passed=0; failed=0
step() {
  local name=$1; shift
  if "$@"; then passed=$((passed+1)); echo "ok: $name"; else failed=$((failed+1)); echo "FAILED: $name"; fi
}
pytest_step() {
  local out rc
  out=$("$PY" -m pytest -q -p no:cacheprovider "$@" 2>&1); rc=$?
  echo "$out" | tail -n 15
  local p f
  p=$(echo "$out" | grep -oE '[0-9]+ passed' | tail -1 | grep -oE '[0-9]+' || true)
  f=$(echo "$out" | grep -oE '[0-9]+ (failed|error|errors)' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  [ "$rc" -eq 0 ] || { [ "${f:-0}" -gt 0 ] || failed=$((failed+1)); }
}
pytest_step tests/python/test_vectors_scapy.py tests/python/test_vectors_tshark.py
decode_ok() {
  local hex
  hex=$("$PY" -c 'import json;print(json.load(open("tests/vectors/sfc-7-sw4-report.json"))["hex"])')
  tools/srv6int-decode --hex "$hex" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["report"]["reporter_device_id"]==4 and len(d["mirrored"]["int_metadata"])==4 else 1)'
}
decode_error() {
  local out rc
  out=$(tools/srv6int-decode --hex 02000000000202000000000186dd60); rc=$?
  [ "$rc" -eq 1 ] && echo "$out" | grep -q '"error": "TRUNCATED_IPV6"'
}
step "srv6int-decode report" decode_ok
step "srv6int-decode error exit 1" decode_error
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
