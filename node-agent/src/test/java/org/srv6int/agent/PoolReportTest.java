// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The agent's periodic pool report to the app ({@code POST .../loop/pools}, docs/node-agent.md
 * "Pool report") against an HTTP server standing for ONOS: sent at the first tick with the loop's
 * figures, then once per interval and no more, with the figures of the tick that sent it; a 503, a
 * refused connection or an app that does not answer is neither repeated with old figures nor piled
 * up, the next interval sends fresh ones, and the loop runs on meanwhile. A pod change reported at
 * once is {@code AgentOnRealApiServerTest.aPodChangeIsReportedToTheAppAtOnce}.
 */
public class PoolReportTest {

    private static final long INTERVAL_MS = 200;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    /** ONOS's pool resource as far as the agent can tell: records each POST, answers {@link #status}. */
    private final class Onos {
        final BlockingQueue<JsonNode> reports = new LinkedBlockingQueue<>();
        final List<Long> arrivals = new CopyOnWriteArrayList<>();
        volatile int status = 202;
        volatile CountDownLatch hold;
        final ExecutorService threads = Executors.newCachedThreadPool();
        HttpServer server;
        int port;

        void start(int onPort) throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", onPort), 0);
            server.setExecutor(threads); // requests in parallel: a second POST is seen while one hangs
            server.createContext("/onos/srv6int/loop/pools", ex -> {
                arrivals.add(System.nanoTime());
                reports.add(MAPPER.readTree(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
                CountDownLatch h = hold;
                if (h != null) {
                    try {
                        h.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                ex.sendResponseHeaders(status, -1);
                ex.close();
            });
            server.start();
            port = server.getAddress().getPort();
        }

        void stop() {
            server.stop(0);
        }
    }

    private Onos onos;
    private NodeAgent agent;

    @Before
    public void startOnos() throws Exception {
        onos = new Onos();
        onos.start(0);
    }

    @After
    public void stopAll() {
        if (agent != null) {
            agent.close();
        }
        onos.stop();
        onos.threads.shutdownNow();
    }

    private NodeAgent agent() throws Exception {
        // CPU quota only (no resctrl, no cpufreq): LLC and MB are reported as 0 of 0.
        AgentConfig c = NodeAgentTest.cpuOnlyFwd(tmp.getRoot().toPath(), onos.port);
        c.poolReportIntervalMs = INTERVAL_MS;
        c.validate();
        agent = new NodeAgent(c);
        return agent;
    }

    /** Ticks as the capture does (every few ms) for a while; returns the time ticked. */
    private static long tickFor(NodeAgent agent, long millis) throws InterruptedException {
        long t0 = System.nanoTime();
        long end = t0 + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            agent.tick();
            Thread.sleep(5);
        }
        return System.nanoTime() - t0;
    }

    private static JsonNode next(NodeAgent agent, BlockingQueue<JsonNode> reports) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            agent.tick();
            JsonNode r = reports.poll(5, TimeUnit.MILLISECONDS);
            if (r != null) {
                return r;
            }
        }
        throw new AssertionError("no pool report within 10 s");
    }

    /** The report says what the loop's pools hold now (read independently of PoolReport). */
    private static void assertFigures(NodeAgent agent, JsonNode report) {
        assertEquals("worker1", report.get("node").asText());
        assertEquals(report.toString(), 1, report.get("pools").size());
        JsonNode p = report.get("pools").get(0);
        ResourcePool cpu = agent.loop().pool(ResourceType.CPU_QUOTA);
        assertEquals(report.toString(), cpu.budget(), p.get("cpuMillis").get("budget").asLong());
        assertEquals(report.toString(), cpu.free(), p.get("cpuMillis").get("free").asLong());
        assertEquals(report.toString(), agent.loop().reclaimable(ResourceType.CPU_QUOTA),
                p.get("cpuMillis").get("reclaimable").asLong());
        for (String absent : new String[] {"llcWays", "memoryBandwidthPercent"}) {
            assertEquals(report.toString(), "{\"free\":0,\"reclaimable\":0,\"budget\":0}", p.get(absent).toString());
        }
    }

    private static long counter(NodeAgent agent, String result) throws Exception {
        String metrics = NodeAgentTest.get("http://127.0.0.1:" + agent.metricsPort() + "/metrics");
        String key = "srv6int_node_pool_reports_total{result=\"" + result + "\"} ";
        int i = metrics.indexOf(key);
        assertTrue(metrics, i >= 0);
        return Long.parseLong(metrics.substring(i + key.length(), metrics.indexOf('\n', i)));
    }

    /** Over its bound: Algorithm 1 adds CPU steps from the free pool, so the figures change. */
    private static void overload(NodeAgent agent, int windows) throws Exception {
        byte[] frame = ReplayFixture.frame(ReplayFixture.FWD_SID, 1, true, 3_000_000);
        for (int i = 0; i < windows * agent.loop().windowSize(); i++) {
            agent.frame(frame, frame.length);
        }
        agent.tick();
    }

    private static int interval(long nanos) {
        return (int) (nanos / TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS));
    }

    @Test
    public void sentAtOnceWithTheLoopsFiguresThenOncePerIntervalAndNoMore() throws Exception {
        NodeAgent a = agent();
        assertFigures(a, next(a, onos.reports)); // the first tick sends, not a period later
        assertTrue("a CPU pool to report", a.loop().pool(ResourceType.CPU_QUOTA).budget() > 0);
        onos.reports.clear();
        onos.arrivals.clear();
        long ticked = tickFor(a, 6 * INTERVAL_MS);
        int n = onos.reports.size();
        assertTrue(n + " reports in " + ticked / 1e6 + " ms of " + INTERVAL_MS + " ms intervals: not one per interval",
                n <= interval(ticked) + 1);
        assertTrue(n + " reports in " + ticked / 1e6 + " ms: the periodic report is not sent", n >= 2);
        // The figures change (the loop gives the vNF CPU): the next report carries the new ones.
        long before = a.loop().pool(ResourceType.CPU_QUOTA).free();
        overload(a, 3);
        assertTrue("the loop added CPU", a.loop().pool(ResourceType.CPU_QUOTA).free() < before);
        onos.reports.clear();
        assertFigures(a, next(a, onos.reports));
        assertEquals(0, counter(a, "failed"));
        assertTrue(counter(a, "sent") >= 3);
    }

    @Test
    public void aFailedReportIsNotRepeatedButTheNextIntervalSendsFreshFigures() throws Exception {
        onos.status = 503;
        NodeAgent a = agent();
        next(a, onos.reports);
        long ticked = tickFor(a, 5 * INTERVAL_MS);
        int n = onos.arrivals.size();
        assertTrue(n + " POSTs in " + ticked / 1e6 + " ms of " + INTERVAL_MS + " ms intervals while the app answers "
                + "503: repeated within an interval", n <= interval(ticked) + 2);
        assertTrue(counter(a, "failed") >= 2);
        assertEquals(0, counter(a, "sent"));
        // The app is back: the next interval's report arrives, with the figures of its tick.
        onos.status = 202;
        overload(a, 2);
        onos.reports.clear();
        JsonNode r = next(a, onos.reports);
        assertFigures(a, r);
        long waitSent = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (counter(a, "sent") == 0 && System.nanoTime() < waitSent) {
            tickFor(a, 20);
        }
        assertTrue(counter(a, "sent") >= 1);

        // Connection refused: counted, the loop runs on, the report comes back with the app.
        int port = onos.port;
        onos.stop();
        long failed = counter(a, "failed");
        long adds = a.metrics().decisions(0, Action.ADD);
        overload(a, 2);
        ticked = tickFor(a, 5 * INTERVAL_MS);
        assertTrue("the loop decided while the app was unreachable", a.metrics().decisions(0, Action.ADD) > adds);
        assertTrue(counter(a, "failed") - failed + " failures counted in " + ticked / 1e6 + " ms",
                counter(a, "failed") - failed >= 2 && counter(a, "failed") - failed <= interval(ticked) + 1);
        onos.reports.clear();
        onos.start(port);
        assertFigures(a, next(a, onos.reports));
    }

    @Test
    public void aReportInFlightHoldsBackTheNextAndTheLoopRunsOn() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        onos.hold = hold;
        NodeAgent a = agent();
        next(a, onos.reports);
        onos.reports.clear();
        // The app has the first report and does not answer (the client gives up after 3 s).
        long adds = a.metrics().decisions(0, Action.ADD);
        overload(a, 2);
        tickFor(a, 5 * INTERVAL_MS);
        assertTrue("the loop decided while a report hung", a.metrics().decisions(0, Action.ADD) > adds);
        assertEquals("reports piled up behind one the app has not answered", 1, onos.arrivals.size());
        onos.hold = null;
        hold.countDown();
        // Answered: the next report goes, with the figures of the tick that sends it.
        JsonNode r = next(a, onos.reports);
        assertNotNull(r);
        assertFigures(a, r);
        assertEquals(2, onos.arrivals.size());
    }
}
