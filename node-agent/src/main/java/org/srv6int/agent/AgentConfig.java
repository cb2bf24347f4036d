// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.TreeMap;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.srv6int.agent.actuate.CgroupHierarchy;
import org.srv6int.agent.actuate.CgroupVersion;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.LoopListener;
import org.srv6int.agent.loop.RaisePolicy;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.loop.SlackPolicy;
import org.srv6int.agent.numa.NumaConfig;
import org.srv6int.agent.window.LatencyWindow;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The node agent's configuration file (JSON, see docs/node-agent.md):
 * this node's vNFs and the loop's parameters. Unknown keys are errors, so a
 * misspelt key never silently falls back to a default.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public final class AgentConfig {

    /** Node name sent in escalations; default: $NODE_NAME, else the host name. */
    public String node;
    /** NIC the SRv6-INT packets arrive on (live capture, NUMA node). */
    public String iface;
    /** Directory that stands for the host's "/" (the DaemonSet mounts the host under /host). */
    public String hostRoot = "/";
    /** Window size N of Algorithm 1. */
    public int windowSize = LatencyWindow.DEFAULT_N;
    /** T[i] of Algorithm 1 line 1 for every vNF. */
    public ResourceType initialResource = ResourceType.CPU_QUOTA;
    /**
     * host:port of the Prometheus endpoint; {@code ${POD_IP}} stands for the environment variable
     * POD_IP (the DaemonSet sets it from status.podIP: the node's address under hostNetwork).
     */
    public String metricsAddress = "127.0.0.1:9464";
    /** JSON-lines decision log ("-" for standard output, empty for none). */
    public String decisionLog = "-";
    /** ONOS app escalation URL, empty to disable escalation. */
    public String escalationUrl = "";
    /**
     * The agent's projected ServiceAccount token for the app (audience srv6int.org/agent), read
     * before every request; required with {@link #escalationUrl} (docs/security.md).
     */
    public String tokenFile;
    /** PEM CA(s) the app's HTTPS certificate is checked against; empty: the JVM's trust store. */
    public String caFile;
    /** Least time between two escalations of one vNF, ms. */
    public long escalationIntervalMs = 1000;
    /**
     * How long a vNF must have been over its bound in every window, its local loop exhausted,
     * before it is escalated, ms: two of the app's 500 ms telemetry windows, so the global loop
     * sees the violation as the agent does, and a transient the local loop absorbs stays local.
     */
    public long escalationHoldMs = 1000;
    /** Attempts per escalation (first try plus retries). */
    public int escalationAttempts = 4;
    /**
     * Period of the pool report to the app (POST beside {@link #escalationUrl}: .../loop/pools,
     * same credentials), ms; 0 for none. The app takes a report older than 15 s as stale.
     */
    public long poolReportIntervalMs = 5000;
    /** How long an Algorithm 2 trial waits for the donor's window, ms. */
    public long trialTimeoutMs = 2000;
    /** Line 24 frees from the largest-slack vNF only while its slack exceeds this fraction of its Lmax. */
    public double freeSlackFraction = SlackPolicy.DEFAULT.freeFraction();
    /** Line 16 takes from the largest-slack vNF only while its slack exceeds this fraction of its Lmax. */
    public double takeSlackFraction = SlackPolicy.DEFAULT.takeFraction();
    /** After a reverted Algorithm 2 trial the donor gives none of that type for this many of its windows. */
    public int donorCooldownWindows = SlackPolicy.DEFAULT.cooldownWindows();
    /** Line 24 frees from the largest-slack vNF only after this many of its windows in a row above the margin. */
    public int freeSlackWindows = SlackPolicy.DEFAULT.freeSlackWindows();
    /** A kept free whose donor goes over its bound within this many of its windows counts as reverted (0: off). */
    public int revertHorizonWindows = SlackPolicy.DEFAULT.revertHorizonWindows();
    /** The donor cool-down doubles on each further revert of a type up to this many windows; null: 8 x the first. */
    public Integer maxDonorCooldownWindows;
    /**
     * Windows without a revert after a cool-down before the next one is the first again (0: it never grows);
     * null: twice {@link #maxDonorCooldownWindows}.
     */
    public Integer cooldownResetWindows;
    /** Time cap of the first donor cool-down, ms, doubling with its windows (0: windows only). */
    public long donorCooldownMs = 10_000;
    /** Time cap of the grown donor cool-down, ms; null: 8 x {@link #donorCooldownMs}. */
    public Long maxDonorCooldownMs;
    /** Time cap of the revert horizon, ms (0: windows only). */
    public long revertHorizonMs = 2_000;
    /**
     * Line 24 frees nothing from a vNF within this long after its last window over the bound, ms (0: off, the
     * default: in the twin's Fig. 13 a 1 s hold kept ntopng's LLC from rising; the lab sets 1000).
     */
    public long freeHoldMs = 0;
    /** Most steps one over-bound window adds, in proportion to L95 over Lmax (1: the listing's one step). */
    public int maxRaiseSteps = RaisePolicy.DEFAULT.maxSteps();
    /**
     * CPU quota is raised for a vNF over its bound only if its quota throttled it in at least this share of its
     * periods in its last two windows (cgroup cpu.stat; 0: always, the listing).
     */
    public double minThrottledShare = 0.1;
    /** A window closes after this long even if short of windowSize samples, ms (0: by count only). */
    public long windowMaxMs = RaisePolicy.DEFAULT.windowMaxNanos() / 1_000_000;
    /** Capture buffer snap length, bytes (must hold Ethernet + IPv6 + the SRH). */
    public int snapLength = 512;
    /** Pin every vNF's cpuset to the NIC's NUMA node at start-up. */
    public boolean pinToNicNode = true;
    /** CPU quota period (cpu.max, cpu.cfs_period_us), µs. */
    public long cpuPeriodUs = 100_000;
    /** Which cgroup hierarchy to write: chosen at start from the host's mounts, or forced. */
    public CgroupSetting cgroupVersion = CgroupSetting.AUTO;
    /** Per-type settings (missing types use defaults). */
    public Map<ResourceType, ResourceSettings> resources = new EnumMap<>(ResourceType.class);
    /** The vNFs of this node, fixed (replays, tests); empty when {@link #followPods}. */
    public List<Vnf> vnfs = new ArrayList<>();
    /** Learn the vNFs from the replica pods of this node through the API server instead of {@link #vnfs}. */
    public boolean followPods;
    /** Namespace of the replica pods (the bridge's); the agent's rights are granted there only. */
    public String podNamespace = "srv6int-sfc";
    /** Lmax, ns, of a replica pod that has no srv6int.org/lmax-ns annotation; 0: such a pod is not managed. */
    public long lmaxNs;
    /** enforce: adjust resources; recommend: compute and publish what would be done, touch nothing. */
    public Mode mode = Mode.ENFORCE;
    /** How CPU quota is changed: through the pod's resize subresource, cpu.max, or chosen at start. */
    public CpuActuation cpuActuation = CpuActuation.AUTO;
    /** What to do when the agent's CPU value was overwritten by someone else. */
    public OverwritePolicy onOverwrite = OverwritePolicy.REAPPLY;
    /** How often the agent compares the CPU values it set with what is there, ms (0: never). */
    public long overwriteCheckMs = 1000;
    /** SID → pod wiring through Open vSwitch (followPods only); null: the agent wires nothing. */
    public Wiring wiring;
    /** NUMASFP: chains on NUMA nodes, per-chain LLC + memory bandwidth, migration (off by default). */
    public NumaConfig numa = new NumaConfig();

    /** What the agent does with its decisions. */
    public enum Mode {
        /** Apply them (the paper's loop). */
        ENFORCE,
        /** Dry run: publish them as events and metrics, change nothing (like VPA's updateMode Off). */
        RECOMMEND
    }

    /** Where CPU quota changes go. */
    public enum CpuActuation {
        /** The pod's resize subresource when the API server offers it, else cpu.max. */
        AUTO,
        /** The pod's resize subresource (in-place pod resize); requests/limits shown by the API stay true. */
        RESIZE,
        /** cpu.max of the container's cgroup, behind the kubelet's back. */
        CGROUP
    }

    /** The cgroup hierarchy ({@link CgroupHierarchy}). */
    public enum CgroupSetting {
        /** v2 if a cgroup2 mount under the host's /sys/fs/cgroup has the cpu controller, else v1 if one has it. */
        AUTO(null),
        /** cpu.cfs_quota_us / cpu.cfs_period_us and cpuset.* under each controller's mount. */
        V1(CgroupVersion.V1),
        /** cpu.max and cpuset.* in the unified hierarchy. */
        V2(CgroupVersion.V2);

        private final CgroupVersion version;

        CgroupSetting(CgroupVersion version) {
            this.version = version;
        }

        /**
         * The version forced.
         *
         * @return version, null for AUTO
         */
        public CgroupVersion version() {
            return version;
        }
    }

    /** Reaction to a CPU value the agent did not write. */
    public enum OverwritePolicy {
        /** Write the agent's value again. */
        REAPPLY,
        /** Take the value found as the vNF's allocation (within its floor, ceiling and the free budget). */
        YIELD
    }

    /** Settings of one resource type; null fields take the host-derived default. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public static final class ResourceSettings {
        /** Use this type at all. */
        public boolean enabled = true;
        /** Fixed step. */
        public Long step;
        /** Node budget shared by the vNFs. */
        public Long budget;
        /** Floor for every vNF (raised to the hardware's minimum). */
        public Long floor;
        /** Ceiling for every vNF (cut to the hardware's maximum). */
        public Long ceiling;
    }

    /**
     * The Open vSwitch bridge between the uplink NIC(s) and the replica pods (docs/node-agent.md,
     * "Wiring"). A pod's host-side interface is found from the kernel, not configured.
     */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public static final class Wiring {
        /** Bridge name (created if missing, fail_mode=secure). */
        public String bridge = "srv6int-br";
        /** {@code system} (kernel datapath) or {@code netdev} (userspace). */
        public String datapathType = "system";
        /** The replica's interface inside its pod ({@code eth0}; a Multus secondary network's name). */
        public String podInterface = "eth0";
        /** NIC facing the switch; default: {@link AgentConfig#iface}. */
        public String uplink;
        /** Per switch port ("device:leaf1/3" as in the pod's annotations): the NIC facing it. */
        public Map<String, String> uplinks = new TreeMap<>();
        /** OVS run directory (db.sock, bridge .mgmt sockets); null: /var/run/openvswitch. */
        public String ovsRunDir;
        /** Bound of one ovs-vsctl/ovs-ofctl call, s. */
        public int ovsTimeoutS = 5;
        /** Interval of the repair reconciliation, ms (0: never). */
        public long repairIntervalMs = 5000;
    }

    /** One vNF (replica) on this node. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public static final class Vnf {
        /** Name, unique on the node (metrics label, resctrl group suffix). */
        public String name;
        /** The replica's SID: packets whose IPv6 destination is this SID are this vNF's. */
        public String sid;
        /** SFC id (the SRH Tag). */
        public int chainId;
        /** Position of the vNF in its chain. */
        public int vnfIndex;
        /** Lmax[i], ns. */
        public long lmaxNs;
        /** Pod UID. */
        public String podUid;
        /** Container id, with or without "containerd://". */
        public String containerId;
        /** Cores the vNF runs on (cpu list); default: the NIC's NUMA node. */
        public String cpus;
        /** vNF type, the row of NUMASFP's profile (e.g. "router", "monitor"); null: the most demanding row. */
        public String type;
        /** Allocations to apply at start-up instead of reading them back. */
        public Map<ResourceType, Long> initial = new EnumMap<>(ResourceType.class);
        /**
         * CPU the scheduler promised the vNF's pod (its request), millicores; null if none. When the
         * quotas found exceed the budget, every vNF is cut to its request before any goes below it.
         */
        public Long cpuRequestMillis;
    }

    /**
     * Reads and checks a config file.
     *
     * @param file JSON file
     * @return the config
     * @throws IOException if unreadable or invalid (message says what and where)
     */
    public static AgentConfig load(Path file) throws IOException {
        ObjectMapper mapper = new ObjectMapper()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        AgentConfig c;
        try {
            c = mapper.readValue(Files.readAllBytes(file), AgentConfig.class);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        c.validate();
        return c;
    }

    // The HTTP client refuses other URLs only when it sends: that would be on the loop's thread.
    private void checkEscalationUrl() throws IOException {
        if (escalationUrl == null || escalationUrl.isEmpty()) {
            return;
        }
        URI u;
        try {
            u = new URI(escalationUrl);
        } catch (URISyntaxException e) {
            throw new IOException("escalationUrl is not a URL: " + e.getMessage(), e);
        }
        boolean http = "http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme());
        if (!http || u.getHost() == null) {
            throw new IOException("escalationUrl must be an http:// or https:// URL with a host, got '"
                    + escalationUrl + "'");
        }
    }

    /**
     * Checks the values and fills derived defaults.
     *
     * @throws IOException describing the first problem found
     */
    public void validate() throws IOException {
        if (windowSize < 20) {
            throw new IOException("windowSize must be >= 20 for a meaningful L95, got " + windowSize);
        }
        if (vnfs.isEmpty() && !followPods) {
            throw new IOException("no vnfs configured and followPods is off");
        }
        if (!vnfs.isEmpty() && followPods) {
            throw new IOException("vnfs and followPods exclude each other: with followPods the vNFs come from the "
                    + "pods");
        }
        if (cgroupVersion == null) {
            throw new IOException("cgroupVersion must be AUTO, V1 or V2");
        }
        if (lmaxNs < 0 || overwriteCheckMs < 0) {
            throw new IOException("lmaxNs and overwriteCheckMs must be >= 0");
        }
        if (snapLength < 256) {
            throw new IOException("snapLength must be >= 256 to hold a full SRH");
        }
        if (escalationAttempts < 1) {
            throw new IOException("escalationAttempts must be >= 1");
        }
        if (escalationIntervalMs < 0 || escalationHoldMs < 0) {
            throw new IOException("escalationIntervalMs and escalationHoldMs must be >= 0, got "
                    + escalationIntervalMs + " and " + escalationHoldMs);
        }
        if (trialTimeoutMs <= 0) {
            throw new IOException("trialTimeoutMs must be positive, got " + trialTimeoutMs);
        }
        if (poolReportIntervalMs < 0) {
            throw new IOException("poolReportIntervalMs must be >= 0 (0: no pool report)");
        }
        checkEscalationUrl();
        if (metricsAddress != null && metricsAddress.contains("${POD_IP}")) {
            String ip = System.getenv("POD_IP");
            if (ip == null || ip.isBlank()) {
                throw new IOException("metricsAddress names ${POD_IP} but the environment has no POD_IP (the "
                        + "DaemonSet sets it from status.podIP)");
            }
            metricsAddress = metricsAddress.replace("${POD_IP}", ip.contains(":") ? "[" + ip + "]" : ip);
        }
        try {
            slackPolicy();
        } catch (IllegalArgumentException e) {
            throw new IOException("slack policy (freeSlackFraction, takeSlackFraction, donorCooldownWindows, "
                    + "freeSlackWindows, revertHorizonWindows, maxDonorCooldownWindows, cooldownResetWindows, "
                    + "donorCooldownMs, maxDonorCooldownMs, revertHorizonMs, freeHoldMs): "
                    + e.getMessage(), e);
        }
        try {
            raisePolicy();
        } catch (IllegalArgumentException e) {
            throw new IOException("raise (maxRaiseSteps, windowMaxMs, minThrottledShare): " + e.getMessage(), e);
        }
        if (numa == null) {
            throw new IOException("numa must be an object, not null");
        }
        try {
            numa.validate();
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        Set<String> names = new HashSet<>();
        Set<String> sids = new HashSet<>();
        for (int i = 0; i < vnfs.size(); i++) {
            Vnf v = vnfs.get(i);
            String where = "vnfs[" + i + "]";
            if (v.name == null || !v.name.matches("[A-Za-z0-9_.-]{1,48}")) {
                throw new IOException(where + ".name must be 1-48 of [A-Za-z0-9_.-]");
            }
            if (!names.add(v.name)) {
                throw new IOException(where + ": duplicate name " + v.name);
            }
            if (v.sid == null) {
                throw new IOException(where + ".sid missing");
            }
            byte[] sid = parseSid(v.sid, where);
            if (!sids.add(Arrays.toString(sid))) {
                throw new IOException(where + ": duplicate sid " + v.sid);
            }
            if (v.lmaxNs <= 0) {
                throw new IOException(where + ".lmaxNs must be positive");
            }
            if (v.podUid == null || v.containerId == null) {
                throw new IOException(where + ": podUid and containerId are required");
            }
            if (v.cpuRequestMillis != null && v.cpuRequestMillis < 0) {
                throw new IOException(where + ".cpuRequestMillis must be >= 0");
            }
            if (v.cpus != null) {
                try {
                    org.srv6int.agent.actuate.CpuList.parse(v.cpus);
                } catch (IllegalArgumentException e) {
                    throw new IOException(where + ".cpus: " + e.getMessage(), e);
                }
            }
        }
        for (Map.Entry<ResourceType, ResourceSettings> e : resources.entrySet()) {
            ResourceSettings s = e.getValue();
            if (s.step != null && s.step <= 0) {
                throw new IOException("resources." + e.getKey() + ".step must be positive");
            }
            if (s.floor != null && s.ceiling != null && s.floor > s.ceiling) {
                throw new IOException("resources." + e.getKey() + ": floor above ceiling");
            }
        }
        if (wiring != null) {
            if (!followPods) {
                throw new IOException("wiring needs followPods (the SIDs and interfaces come from the pods)");
            }
            String up = wiring.uplink != null ? wiring.uplink : iface;
            if (up == null && wiring.uplinks.isEmpty()) {
                throw new IOException("wiring: no uplink (set wiring.uplink, wiring.uplinks or iface)");
            }
            if (wiring.ovsTimeoutS < 1 || wiring.repairIntervalMs < 0) {
                throw new IOException("wiring: ovsTimeoutS must be >= 1 and repairIntervalMs >= 0");
            }
            if (wiring.bridge == null || wiring.podInterface == null) {
                throw new IOException("wiring: bridge and podInterface are required");
            }
        }
        if (node == null || node.isEmpty()) {
            String env = System.getenv("NODE_NAME");
            try {
                node = env != null && !env.isEmpty() ? env : InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                node = "unknown";
            }
        }
    }

    /**
     * A copy of the node-level settings with another list of vNFs (the agent rebuilds its
     * loop from it whenever the replica pods of the node change).
     *
     * @param members the vNFs
     * @return the copy
     */
    public AgentConfig withVnfs(List<Vnf> members) {
        AgentConfig c = new AgentConfig();
        c.node = node;
        c.iface = iface;
        c.hostRoot = hostRoot;
        c.windowSize = windowSize;
        c.initialResource = initialResource;
        c.metricsAddress = metricsAddress;
        c.decisionLog = decisionLog;
        c.escalationUrl = escalationUrl;
        c.escalationIntervalMs = escalationIntervalMs;
        c.escalationHoldMs = escalationHoldMs;
        c.escalationAttempts = escalationAttempts;
        c.poolReportIntervalMs = poolReportIntervalMs;
        c.trialTimeoutMs = trialTimeoutMs;
        c.freeSlackFraction = freeSlackFraction;
        c.takeSlackFraction = takeSlackFraction;
        c.donorCooldownWindows = donorCooldownWindows;
        c.freeSlackWindows = freeSlackWindows;
        c.revertHorizonWindows = revertHorizonWindows;
        c.maxDonorCooldownWindows = maxDonorCooldownWindows;
        c.cooldownResetWindows = cooldownResetWindows;
        c.donorCooldownMs = donorCooldownMs;
        c.maxDonorCooldownMs = maxDonorCooldownMs;
        c.revertHorizonMs = revertHorizonMs;
        c.freeHoldMs = freeHoldMs;
        c.maxRaiseSteps = maxRaiseSteps;
        c.minThrottledShare = minThrottledShare;
        c.windowMaxMs = windowMaxMs;
        c.snapLength = snapLength;
        c.pinToNicNode = pinToNicNode;
        c.cpuPeriodUs = cpuPeriodUs;
        c.cgroupVersion = cgroupVersion;
        c.resources = resources;
        c.vnfs = new ArrayList<>(members);
        c.followPods = false;
        c.lmaxNs = lmaxNs;
        c.podNamespace = podNamespace;
        c.mode = mode;
        c.cpuActuation = cpuActuation;
        c.onOverwrite = onOverwrite;
        c.overwriteCheckMs = overwriteCheckMs;
        c.wiring = null; // the wiring follows the pods, not a generation's vNFs
        c.numa = numa;
        return c;
    }

    /**
     * Parses a SID (IPv6 literal) without any name lookup.
     *
     * @param sid IPv6 address text
     * @param where config location for the message
     * @return 16 bytes
     * @throws IOException if not an IPv6 literal
     */
    public static byte[] parseSid(String sid, String where) throws IOException {
        if (!sid.contains(":") || !sid.matches("[0-9A-Fa-f:.]+")) {
            throw new IOException(where + ".sid '" + sid + "' is not an IPv6 address");
        }
        try {
            byte[] b = InetAddress.getByName(sid).getAddress();
            if (b.length != 16) {
                throw new IOException(where + ".sid '" + sid + "' is not an IPv6 address");
            }
            return b;
        } catch (UnknownHostException e) {
            throw new IOException(where + ".sid '" + sid + "' is not an IPv6 address", e);
        }
    }

    /**
     * The slack policy the eleven keys describe.
     *
     * @return policy
     * @throws IllegalArgumentException if a value is out of range
     */
    public SlackPolicy slackPolicy() {
        long max = maxDonorCooldownWindows != null ? maxDonorCooldownWindows : 8L * donorCooldownWindows;
        long reset = cooldownResetWindows != null ? cooldownResetWindows : 2 * max;
        return new SlackPolicy(freeSlackFraction, takeSlackFraction, donorCooldownWindows, freeSlackWindows,
                revertHorizonWindows, (int) Math.min(Integer.MAX_VALUE, max),
                (int) Math.min(Integer.MAX_VALUE, reset))
                .withTimeCaps(TimeUnit.MILLISECONDS.toNanos(donorCooldownMs),
                        TimeUnit.MILLISECONDS.toNanos(maxDonorCooldownMs != null ? maxDonorCooldownMs
                                : 8 * donorCooldownMs), TimeUnit.MILLISECONDS.toNanos(revertHorizonMs))
                .withFreeHold(TimeUnit.MILLISECONDS.toNanos(freeHoldMs));
    }

    /**
     * The raise policy of maxRaiseSteps and windowMaxMs (a window closed by time holds at least 20 samples,
     * the least windowSize).
     *
     * @return policy
     * @throws IllegalArgumentException if a value is out of range
     */
    public RaisePolicy raisePolicy() {
        // the throttled share over at least two quota periods: cpu.stat moves only when a period ends
        return new RaisePolicy(maxRaiseSteps, TimeUnit.MILLISECONDS.toNanos(windowMaxMs), 20, minThrottledShare,
                2 * TimeUnit.MICROSECONDS.toNanos(cpuPeriodUs));
    }

    /**
     * The local loop this config describes, on pools from {@link HostSetup}: the one place
     * that turns the config's loop keys into a {@link LocalLoop} (the agent and the testbed
     * twin both build it here).
     *
     * @param pools pools by type ordinal, null where the host lacks the type
     * @param listener receives windows, decisions and escalations
     * @param clock monotonic nanoseconds
     * @return the loop
     */
    public LocalLoop newLoop(ResourcePool[] pools, LoopListener listener, LongSupplier clock) {
        long[] lmax = new long[vnfs.size()];
        for (int i = 0; i < lmax.length; i++) {
            lmax[i] = vnfs.get(i).lmaxNs;
        }
        return new LocalLoop(lmax, windowSize, pools, initialResource, listener, clock,
                TimeUnit.MILLISECONDS.toNanos(trialTimeoutMs), TimeUnit.MILLISECONDS.toNanos(escalationIntervalMs),
                TimeUnit.MILLISECONDS.toNanos(escalationHoldMs), slackPolicy(), raisePolicy());
    }

    /**
     * Settings of a type, defaults if absent.
     *
     * @param type resource type
     * @return settings, never null
     */
    public ResourceSettings settings(ResourceType type) {
        ResourceSettings s = resources.get(type);
        return s != null ? s : new ResourceSettings();
    }
}
