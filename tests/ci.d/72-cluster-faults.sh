#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The app on a real three-process cluster under network faults (issue 33): three
# ClusterMember JVMs (Atomix 3.1.9 Raft members under the app's assembly), each in a
# network namespace of its own made here, run by ClusterPartitionTest through
# tools/cluster-faults: c1 the leader cut off from the other two (iptables) and healed; c2 a
# follower cut off (a minority) and healed; c3 20 % random loss between members while device
# masterships move; c4 40 +- 20 ms delay each way (a relay of ours: no netem here) and 10 % loss
# while masterships move. Under a steady write load and with the app's closed loop on every
# member (since session 16): INT reports into all three collectors over the bridge, the
# Kubernetes bridge against tools/k8s-testenv started on the bridge's address, every case with a
# scale-out in flight under its fault (c1/c2 at the cut; c3/c4, since session 17, decided under
# the loss/delay and in flight while masterships move); nothing accepted is lost, the decision ends once, no replica
# doubled, no SID leaked, no orphan StatefulSet (docs/cluster.md section 4).
# SRV6INT_FAULTS_SKIP=c2 still leaves c2 out.
# Budget: ~2-4 min on 2 busy cores (control plane start ~10 s and all four cases with the loop,
# cluster start included: 133-162 s with c3/c4 in violation (session 17); 111-150 s in session
# 16's passing runs at load average 7-12, was 63-80 s without the loop; a failing case can wait
# out its 90 s bound); mvn is bounded by a 600 s
# timeout inside tools/cluster-faults. Traffic only inside the namespaces and
# bridge made here (prefix cft-, 10.77.0.0/24), removed on exit; the control plane is stopped.
set -uo pipefail
cd "$(dirname "$0")/../.."
SRV6INT_FAULTS_PREFIX=${SRV6INT_FAULTS_PREFIX:-cft} CASES=${CASES:-c*} exec tools/cluster-faults
