// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.srv6int.agent.obs.AppCredentials;
import org.srv6int.agent.obs.EscalationClient;
import org.srv6int.agent.obs.PoolReporter;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * What the agent sends the ONOS app: escalations and the periodic pool report, on one client
 * that authenticates with the agent's own ServiceAccount token ({@link AppCredentials}). Built
 * only when the config names an escalation URL; its credentials are checked at start-up.
 */
final class AppLink implements AutoCloseable {

    private final EscalationClient client;
    // Pool report to the app (docs/node-agent.md, "Pool report"); null: none.
    private final PoolReporter poolReporter;
    private final AtomicLongArray poolReports = new AtomicLongArray(3);

    private AppLink(AgentConfig config, IntConsumer escalationOutcomes) throws IOException {
        AppCredentials credentials = AppCredentials.open(config.tokenFile, config.caFile);
        URI url = URI.create(config.escalationUrl);
        this.client = new EscalationClient(url, config.escalationAttempts, 250, credentials.authorization(),
                credentials.ssl(), escalationOutcomes);
        this.poolReporter = config.poolReportIntervalMs <= 0 ? null
                : new PoolReporter(client, EscalationClient.poolsUrl(url),
                TimeUnit.MILLISECONDS.toNanos(config.poolReportIntervalMs), poolReports::incrementAndGet);
    }

    /**
     * The link the config asks for.
     *
     * @param config             validated config
     * @param escalationOutcomes receives each escalation's outcome
     * @return link, null without escalationUrl
     * @throws IOException if the credentials are missing or unreadable
     */
    static AppLink of(AgentConfig config, IntConsumer escalationOutcomes) throws IOException {
        return config.escalationUrl == null || config.escalationUrl.isEmpty() ? null
                : new AppLink(config, escalationOutcomes);
    }

    void escalate(String json) {
        client.send(json);
    }

    /** The pools changed: report at the next tick. */
    void poolsChanged() {
        if (poolReporter != null) {
            poolReporter.changed();
        }
    }

    /** Sends the pool report when due; the body is read now, on the loop's thread. */
    void tick(long nowNanos, Supplier<String> body) {
        if (poolReporter != null) {
            poolReporter.tick(nowNanos, body);
        }
    }

    /** Renders the pool reports' counters (zeros without a link). */
    static void render(AppLink link, StringBuilder sb) {
        sb.append("# HELP srv6int_node_pool_reports_total Pool reports to the ONOS app by outcome.\n")
                .append("# TYPE srv6int_node_pool_reports_total counter\n");
        String[] outcome = {"sent", "failed", "rejected"};
        for (int i = 0; i < outcome.length; i++) {
            sb.append("srv6int_node_pool_reports_total{result=\"").append(outcome[i]).append("\"} ")
                    .append(link == null ? 0 : link.poolReports.get(i)).append('\n');
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
