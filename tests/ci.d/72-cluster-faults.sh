#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The app on a real three-process cluster under network faults (issue 33): three
# ClusterMember JVMs (Atomix 3.1.9 Raft members under the app's assembly), each in a
# network namespace of its own made here, run by ClusterPartitionTest through
# tools/cluster-faults: c1 the leader cut off from the other two (iptables) and healed; c2 a
# follower cut off (a minority) and healed; c3 20 % random loss between members while device
# masterships move; c4 40 +- 20 ms delay each way (a relay of ours: no netem here) and 10 % loss
# while masterships move. Under a steady write load; nothing accepted is lost, nothing invented
# (docs/cluster.md section 4). c2 is back since session 15 (the leadership view orders answers by
# term; SRV6INT_FAULTS_SKIP=c2 still leaves it out).
# Budget: ~1-3 min on 2 busy cores (all four cases, cluster start included, took 63-80 s in
# session 15's runs by hand; up to 164 s in session 14's); mvn is bounded by a 600 s timeout
# inside tools/cluster-faults. Traffic only inside the namespaces and bridge made here (prefix
# cft-, 10.77.0.0/24), removed on exit.
set -uo pipefail
cd "$(dirname "$0")/../.."
SRV6INT_FAULTS_PREFIX=${SRV6INT_FAULTS_PREFIX:-cft} CASES=${CASES:-c*} exec tools/cluster-faults
