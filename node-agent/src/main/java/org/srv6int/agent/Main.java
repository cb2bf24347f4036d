// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.srv6int.agent.pods.PodWiring;
import org.srv6int.agent.wiring.OvsPodWiring;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Command line: {@code java -jar srv6int-node-agent-all.jar --config agent.json
 * [--pcap replay.pcap [--exit-after-replay]]}.
 */
public final class Main {

    private Main() {
    }

    private static void usage(String why) {
        System.err.println("node-agent: " + why);
        System.err.println("usage: node-agent --config <agent.json> [--pcap <file.pcap> [--exit-after-replay]]");
        System.exit(2);
    }

    /**
     * Runs the agent.
     *
     * @param args command line
     */
    public static void main(String[] args) {
        String config = null;
        String pcap = null;
        boolean exitAfterReplay = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--config":
                    if (++i >= args.length) {
                        usage("--config needs a file");
                    }
                    config = args[i];
                    break;
                case "--pcap":
                    if (++i >= args.length) {
                        usage("--pcap needs a file");
                    }
                    pcap = args[i];
                    break;
                case "--exit-after-replay":
                    exitAfterReplay = true;
                    break;
                case "-h":
                case "--help":
                    usage("help");
                    break;
                default:
                    usage("unknown argument '" + args[i] + "'");
            }
        }
        if (config == null) {
            usage("--config is required");
        }
        try {
            AgentConfig c = AgentConfig.load(Path.of(config));
            // In a pod: the service account's token and the API server from the environment;
            // elsewhere $KUBECONFIG or ~/.kube/config.
            KubernetesClient client = c.followPods ? new KubernetesClientBuilder().build() : null;
            OvsPodWiring wiring = c.wiring == null ? null : OvsPodWiring.of(c);
            NodeAgent agent = new NodeAgent(c, client, wiring == null ? PodWiring.NONE : wiring);
            if (wiring != null) {
                wiring.startRepair(c.wiring.repairIntervalMs); // after the pods found at start are wired
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (wiring != null) {
                    wiring.close();
                }
                agent.close();
            }, "shutdown"));
            agent.run(pcap == null ? null : Path.of(pcap));
            if (pcap != null && !exitAfterReplay) {
                // keep serving /metrics after a replay until stopped
                Thread.currentThread().join();
            }
            agent.close();
        } catch (IOException e) {
            System.err.println("node-agent: " + e.getMessage());
            System.exit(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
