// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.capture;

import org.junit.Assume;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;
import org.srv6int.agent.AgentConfig;
import org.srv6int.agent.FakeHost;
import org.srv6int.agent.NodeAgent;
import org.srv6int.agent.ReplayFixture;
import org.srv6int.agent.obs.AgentMetrics.Packet;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The live path: the agent captures on the loopback interface while the test
 * injects SRv6-INT frames on it. Needs CAP_NET_RAW; skipped (not failed)
 * where the process may not capture.
 */
public class LiveCaptureTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void liveCaptureOnLoopbackFeedsTheLoop() throws Exception {
        PcapHandle sender;
        try {
            PcapNetworkInterface lo = Pcaps.getDevByName("lo");
            Assume.assumeTrue("no loopback interface", lo != null);
            sender = lo.openLive(512, PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS, 10);
        } catch (Exception | UnsatisfiedLinkError e) {
            Assume.assumeNoException("cannot capture here (needs CAP_NET_RAW)", e);
            return;
        }
        Path dir = tmp.getRoot().toPath();
        FakeHost.worker(dir.resolve("host"));
        AgentConfig c = new AgentConfig();
        c.node = "worker1";
        c.iface = "lo";
        c.hostRoot = dir.resolve("host").toString();
        c.metricsAddress = "127.0.0.1:0";
        c.decisionLog = "";
        AgentConfig.Vnf v = new AgentConfig.Vnf();
        v.name = "fwd";
        v.sid = "fc00:2::10";
        v.chainId = 1;
        v.lmaxNs = 1_000_000;
        v.podUid = FakeHost.UID_A;
        v.containerId = FakeHost.ID_A;
        v.cpus = "2-3";
        c.vnfs.add(v);
        c.validate();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (NodeAgent agent = new NodeAgent(c); PcapHandle s = sender) {
            Thread t = new Thread(() -> {
                try {
                    agent.run(null);
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "capture");
            t.start();
            Thread.sleep(500); // let the capture start
            byte[] frame = ReplayFixture.frame(new byte[] {(byte) 0xfc, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10},
                    1, true, 2_500_000);
            long deadline = System.nanoTime() + 20_000_000_000L;
            int sent = 0;
            while (agent.metrics().packets(Packet.MATCHED) < 1500 && System.nanoTime() < deadline) {
                s.sendPacket(frame);
                sent++;
                if (sent % 500 == 0) {
                    Thread.sleep(10);
                }
            }
            assertTrue("matched " + agent.metrics().packets(Packet.MATCHED) + " of " + sent,
                    agent.metrics().packets(Packet.MATCHED) >= 1500);
            agent.close();
            t.join(5000);
            // join orders the capture thread's writes before these reads
            // one full window of 2.5 ms against a 1 ms bound
            assertEquals(2_500_000, agent.loop().l95(0));
            assertTrue("capture thread ended", !t.isAlive());
        }
        assertNull(failure.get());
    }
}
