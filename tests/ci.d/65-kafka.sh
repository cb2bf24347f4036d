#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The app's Kafka export against a real single-node KRaft broker: Maven Central's Kafka 4.1.1
# jars (resolved by tests/kafka/broker-pom.xml, cached in the local Maven repository) run as a
# broker and controller in a child JVM on this JDK 17; the app's producer (kafka-clients 4.1.1,
# Java 11 bytecode, as embedded in the app bundle) publishes summaries of real collector windows
# and the per-report records the collector's engine samples.
# KafkaExportOnRealBrokerTest checks that records arrive and decode, that a broker restart loses
# no queued summary, and that a down or absent broker never blocks the window thread.
# KafkaExportTlsOnRealBrokerTest starts a second broker with TLS and TLS + SASL PLAIN listeners
# (a CA and broker certificate made with openssl) and checks records are acknowledged over both,
# and that a client trusting another CA, or with a wrong password, is refused.
# Runs after `mvn install` (app test classes).
set -uo pipefail
cd "$(dirname "$0")/../.."
TESTS=7  # tests in KafkaExportOnRealBrokerTest (4) and KafkaExportTlsOnRealBrokerTest (3); fewer passing
         # (or skipped) is a failure
if [ ! -d app/target/test-classes/org/srv6int/app/export ]; then
  echo "app test classes missing: run mvn install first"; echo "0 passed, 1 failed"; exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mvn -B -ntp -q -f tests/kafka/broker-pom.xml dependency:build-classpath -Dmdep.outputFile="$WORK/broker.cp" \
  >"$WORK/mvn.log" 2>&1 || { cat "$WORK/mvn.log"; echo "0 passed, 1 failed"; exit 1; }
mvn -B -ntp -q -pl app dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/app.cp" \
  >"$WORK/mvn.log" 2>&1 || { cat "$WORK/mvn.log"; echo "0 passed, 1 failed"; exit 1; }
OPENS=$(sed -n 's:.*<srv6int.jdk17.opens>\(.*\)</srv6int.jdk17.opens>.*:\1:p' pom.xml)
# shellcheck disable=SC2086
java $OPENS -Dsrv6int.kafka.classpath="$(cat "$WORK/broker.cp")" \
  -cp "app/target/test-classes:app/target/classes:$(cat "$WORK/app.cp")" \
  org.junit.runner.JUnitCore org.srv6int.app.export.KafkaExportOnRealBrokerTest \
  org.srv6int.app.export.KafkaExportTlsOnRealBrokerTest >"$WORK/junit.log" 2>&1
grep -E '^(2000 windows|[0-9]+\) |java.lang.AssertionError|[a-zA-Z.]+(Exception|Error): |OK \(|Tests run:)' "$WORK/junit.log"
run=$(sed -n 's/^OK (\([0-9]*\) tests*)$/\1/p; s/^Tests run: \([0-9]*\),.*/\1/p' "$WORK/junit.log" | tail -n1)
bad=$(sed -n 's/^Tests run: [0-9]*,  Failures: \([0-9]*\).*/\1/p' "$WORK/junit.log" | tail -n1)
run=${run:-0}; bad=${bad:-0}
passed=$((run - bad)); failed=$bad
if [ "$run" -lt "$TESTS" ]; then
  failed=$((failed + TESTS - run)); tail -n 30 "$WORK/junit.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
