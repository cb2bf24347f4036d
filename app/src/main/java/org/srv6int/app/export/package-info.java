// SPDX-License-Identifier: Apache-2.0
/**
 * Optional exports of the app's telemetry to operators' streaming and monitoring stacks, off by
 * default and set in netcfg {@code apps/org.srv6int.app/export} ({@link org.srv6int.app.export.ExportConfig}):
 * per-period chain and vNF summaries to Kafka ({@link org.srv6int.app.export.KafkaExport}, an
 * idempotent producer behind bounded hand-off queues, so the collector never waits on a broker).
 * What each export did is counted ({@link org.srv6int.app.export.ExportService}) and exposed by
 * the metrics package.
 */
package org.srv6int.app.export;
