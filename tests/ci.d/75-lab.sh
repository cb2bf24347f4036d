#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The lab (docs/lab.md "The lab"): tools/lab all runs the real vNFs in their own namespaces
# and cgroups v1 behind the project's emulated switch run as a process (not BMv2), with the
# shipped node agent jar, and checks each scenario's qualitative outcome (LabReport: the
# "ok"/"FAIL" lines); escalate adds the app's REST path, collector and global loop
# (LabController). Needs root; traffic only inside the lab* namespaces it makes.
# Budget: about 2.2 minutes on 2 cores (fig9: 3 runs x ~20 s, contend ~30 s, escalate ~40 s, plus
# JVM starts); bounded by timeout 300.
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: not root (network namespaces, veths, AF_PACKET sockets and cgroups need root)"
  exit 0
fi
if ! pkg-config --exists libndpi libhs 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    libndpi-dev libhyperscan-dev pkg-config >/dev/null
fi
OUT=$(mktemp -d /tmp/srv6int-lab.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
timeout 300 tools/lab all --out "$OUT" >"$OUT/lab.log" 2>&1
rc=$?
passed=$(grep -c '^ok ' "$OUT/lab.log")
failed=$(grep -c '^FAIL ' "$OUT/lab.log")
grep -E '^(ok|FAIL) ' "$OUT/lab.log"
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "FAIL tools/lab ended with status $rc"; failed=$((failed + 1))
  tail -n 30 "$OUT/lab.log"
fi
for s in fig9 contend escalate; do
  if [ -f "$OUT/$s/summary.json" ]; then
    passed=$((passed + 1)); echo "ok   $s/summary.json written"
  else
    failed=$((failed + 1)); echo "FAIL $s/summary.json missing"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
