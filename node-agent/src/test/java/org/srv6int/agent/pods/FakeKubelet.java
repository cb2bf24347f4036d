// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.srv6int.agent.FakeHost;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What the kubelet of a KWOK node does not do and the agent relies on, done the way the
 * kubelet does it: when a pod runs, its container gets an id in the pod status and a cgroup
 * under the QoS class's slice (systemd or cgroupfs driver) with cpu.max from the container's
 * CPU limit; when the pod's CPU limit changes (in-place resize), cpu.max follows and the
 * container status reports the new resources. KWOK itself marks the pods Running and Ready
 * but reports no container ids, no container resources and has no cgroups.
 *
 * <p>A kubelet with in-place resize (1.33+) reports {@code containerStatuses[].resources};
 * the API server refuses a resize of a running pod whose status lacks them ("Pod running on
 * node without support for resize"). {@code reportsResources = false} is such a node: the
 * KWOK pod as KWOK leaves it.
 */
final class FakeKubelet implements AutoCloseable {

    private final KubernetesClient admin;
    private final String namespace;
    private final String node;
    private final String testLabel;
    private final boolean reportsResources;
    private final FakeHost host;
    private final boolean systemd;
    private final Map<String, Long> applied = new HashMap<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private volatile int resizesApplied;
    private volatile Function<Pod, String> procs = p -> "";
    private volatile Predicate<Pod> paused = p -> false;

    FakeKubelet(KubernetesClient admin, String namespace, String node, String testLabel, FakeHost host,
                boolean systemd, boolean reportsResources) {
        this.testLabel = testLabel;
        this.reportsResources = reportsResources;
        this.admin = admin;
        this.namespace = namespace;
        this.node = node;
        this.host = host;
        this.systemd = systemd;
        this.thread = new Thread(this::run, "fake-kubelet");
        thread.setDaemon(true);
        thread.start();
    }

    static String containerId(Pod p) {
        return p.getMetadata().getUid().replace("-", "") + "c0ffee";
    }

    /** cgroup directory of the pod's first container, as the kubelet lays it out. */
    String cgroup(Pod p) {
        String uid = p.getMetadata().getUid();
        String qos = p.getStatus().getQosClass().toLowerCase(Locale.ROOT);
        String id = containerId(p);
        if (systemd) {
            String slice = "guaranteed".equals(qos) ? "kubepods.slice/kubepods-pod" + uid.replace('-', '_') + ".slice"
                    : "kubepods.slice/kubepods-" + qos + ".slice/kubepods-" + qos + "-pod" + uid.replace('-', '_')
                    + ".slice";
            return "/sys/fs/cgroup/" + slice + "/cri-containerd-" + id + ".scope";
        }
        return "/sys/fs/cgroup/kubepods/" + ("guaranteed".equals(qos) ? "" : qos + "/") + "pod" + uid + "/" + id;
    }

    private void run() {
        while (!stop.get()) {
            try {
                for (Pod p : admin.pods().inNamespace(namespace).withField("spec.nodeName", node)
                        .withLabel("srv6int.org/test", testLabel).list().getItems()) {
                    step(p);
                }
            } catch (KubernetesClientException e) {
                // the API server may be slow for a moment; the next round catches up
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void step(Pod p) {
        if (paused.test(p)) {
            return; // still starting: no container id, no cgroup
        }
        if (p.getStatus() == null || !"Running".equals(p.getStatus().getPhase())
                || p.getMetadata().getDeletionTimestamp() != null || p.getStatus().getContainerStatuses() == null
                || p.getStatus().getContainerStatuses().isEmpty()) {
            return;
        }
        String uid = p.getMetadata().getUid();
        long limit = ReplicaPod.cpuMillis(p.getSpec().getContainers().get(0).getResources().getLimits());
        String dir = cgroup(p);
        if (!Files.isDirectory(host.path(dir))) {
            host.file(dir + "/cpu.max", cpuMax(limit));
            host.file(dir + "/cpuset.cpus", "");
            host.file(dir + "/cpuset.cpus.effective", "0-39");
            host.file(dir + "/cpuset.mems", "");
            host.file(dir + "/cgroup.threads", "");
            host.file(dir + "/cgroup.procs", procs.apply(p));
            applied.put(uid, limit);
        } else if (applied.getOrDefault(uid, -2L) != limit) {
            host.file(dir + "/cpu.max", cpuMax(limit)); // in-place resize: the new limit reaches the cgroup
            applied.put(uid, limit);
            resizesApplied++;
        }
        ContainerStatus s = p.getStatus().getContainerStatuses().get(0);
        boolean noId = s.getContainerID() == null || s.getContainerID().isEmpty();
        boolean stale = reportsResources && !p.getSpec().getContainers().get(0).getResources().equals(s.getResources());
        if (noId || stale) {
            admin.pods().inNamespace(namespace).withName(p.getMetadata().getName()).editStatus(q -> {
                ContainerStatus qs = q.getStatus().getContainerStatuses().get(0);
                qs.setContainerID("containerd://" + containerId(q));
                if (reportsResources) {
                    qs.setResources(q.getSpec().getContainers().get(0).getResources()); // what is actuated now
                }
                return q;
            });
        }
    }

    private static String cpuMax(long limitMillis) {
        return limitMillis < 0 ? "max 100000" : (limitMillis * 100) + " 100000";
    }

    /**
     * What the container runs: the PIDs written to a new cgroup's {@code cgroup.procs}.
     *
     * @param pids pod → PIDs (one a line)
     * @return this
     */
    FakeKubelet procs(Function<Pod, String> pids) {
        this.procs = pids;
        return this;
    }

    /**
     * Pods whose container has not started yet (no id, no cgroup) while the predicate holds.
     *
     * @param starting pods still starting
     * @return this
     */
    FakeKubelet paused(Predicate<Pod> starting) {
        this.paused = starting;
        return this;
    }

    /** @return resizes whose new limit was written to cpu.max */
    int resizesApplied() {
        return resizesApplied;
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.interrupt();
        thread.join(5000);
    }
}
