// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which cgroup hierarchy the node offers, chosen once at start from what is mounted under
 * the host's {@code /sys/fs/cgroup}: the mounts of {@code /proc/self/mountinfo} whose mount
 * point lies there (under the host root, e.g. {@code /host/sys/fs/cgroup/cpu} in the
 * DaemonSet), or, when mountinfo shows none (a test's fake tree), the files found there.
 *
 * <ul>
 * <li>a cgroup2 mount whose {@code cgroup.controllers} lists {@code cpu}: <b>v2</b>
 *     (a pure v2 host; or a hybrid one whose unified mount has the controller);</li>
 * <li>else a cgroup v1 mount with the {@code cpu} controller ({@code cpu},
 *     {@code cpu,cpuacct}): <b>v1</b>, with the cpuset controller's mount if there is one;</li>
 * <li>else v2 at {@code /sys/fs/cgroup}, as before there was a choice (set-up then says
 *     what is missing).</li>
 * </ul>
 *
 * <p>{@code cgroupVersion} in the config forces one. {@link #reason()} says what was found.
 */
public final class CgroupHierarchy {

    /** Where the kernel's cgroup mounts are on a host. */
    public static final String CGROUP_ROOT = "/sys/fs/cgroup";
    /** The agent's own mount table. */
    public static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    private final CgroupVersion version;
    private final Path cpu;
    private final Path cpuset;
    private final String reason;

    private CgroupHierarchy(CgroupVersion version, Path cpu, Path cpuset, String reason) {
        this.version = version;
        this.cpu = cpu;
        this.cpuset = cpuset;
        this.reason = reason;
    }

    /**
     * A v2 hierarchy.
     *
     * @param root the unified mount (under the host root)
     * @param reason why
     * @return hierarchy
     */
    public static CgroupHierarchy v2(Path root, String reason) {
        return new CgroupHierarchy(CgroupVersion.V2, root, root, reason);
    }

    /**
     * A v1 hierarchy.
     *
     * @param cpuMount the cpu controller's mount (under the host root)
     * @param cpusetMount the cpuset controller's mount, null if none
     * @param reason why
     * @return hierarchy
     */
    public static CgroupHierarchy v1(Path cpuMount, Path cpusetMount, String reason) {
        return new CgroupHierarchy(CgroupVersion.V1, cpuMount, cpusetMount, reason);
    }

    /**
     * The agent's mount table.
     *
     * @return content of /proc/self/mountinfo, null if it cannot be read
     */
    public static String readMountinfo() {
        try {
            return new String(Files.readAllBytes(MOUNTINFO), StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * Chooses from the agent's own mount table ({@link #MOUNTINFO}).
     *
     * @param host host files
     * @param forced the configured version, null to choose
     * @return the hierarchy
     */
    public static CgroupHierarchy detect(HostFiles host, CgroupVersion forced) {
        return detect(host, forced, readMountinfo());
    }

    /** One cgroup mount: where (under the host root) and which controllers. */
    private static final class Mount {
        final Path point;
        final boolean v2;
        final Set<String> controllers;

        Mount(Path point, boolean v2, Set<String> controllers) {
            this.point = point;
            this.v2 = v2;
            this.controllers = controllers;
        }

        @Override
        public String toString() {
            return point + (v2 ? " (cgroup2: " : " (cgroup v1: ") + String.join(",", new TreeSet<>(controllers)) + ")";
        }
    }

    /**
     * Chooses the hierarchy.
     *
     * @param host host files
     * @param forced the configured version, null to choose
     * @param mountinfo content of a mountinfo file, null if unknown
     * @return the hierarchy, with the reason
     */
    public static CgroupHierarchy detect(HostFiles host, CgroupVersion forced, String mountinfo) {
        Path base = host.path(CGROUP_ROOT);
        List<Mount> mounts = mountinfo == null ? List.of() : fromMountinfo(mountinfo, base);
        String source = "mountinfo";
        if (mounts.isEmpty()) {
            mounts = probe(base);
            source = "the files under " + base + " (" + (mountinfo == null ? "mountinfo unreadable"
                    : "no cgroup mount under it in mountinfo") + ")";
        }
        Mount v2cpu = null;
        Mount v2any = null;
        Mount v1cpu = null;
        Mount v1cpuset = null;
        for (Mount m : mounts) {
            if (m.v2) {
                v2any = v2any == null ? m : v2any;
                v2cpu = v2cpu == null && m.controllers.contains("cpu") ? m : v2cpu;
            } else {
                v1cpu = v1cpu == null && m.controllers.contains("cpu") ? m : v1cpu;
                v1cpuset = v1cpuset == null && m.controllers.contains("cpuset") ? m : v1cpuset;
            }
        }
        String found = "found in " + source + ": " + (mounts.isEmpty() ? "no cgroup mount" : mounts.toString());
        if (forced == CgroupVersion.V2) {
            Mount m = v2cpu != null ? v2cpu : v2any;
            return v2(m != null ? m.point : base, "cgroupVersion V2 configured; " + found);
        }
        if (forced == CgroupVersion.V1) {
            Path cpuset = v1cpuset != null ? v1cpuset.point
                    : Files.isDirectory(base.resolve("cpuset")) ? base.resolve("cpuset") : null;
            return v1(v1cpu != null ? v1cpu.point : base.resolve("cpu"), cpuset, "cgroupVersion V1 configured; "
                    + found);
        }
        if (v2cpu != null) {
            return v2(v2cpu.point, "the cgroup2 mount " + v2cpu.point + " has the cpu controller; " + found);
        }
        if (v1cpu != null) {
            return v1(v1cpu.point, v1cpuset == null ? null : v1cpuset.point, "the cpu controller is on the cgroup v1 "
                    + "mount " + v1cpu.point + (v2any != null ? " (the cgroup2 mount " + v2any.point
                    + " has no cpu controller)" : "") + "; cpuset " + (v1cpuset == null ? "NOT mounted: no pinning"
                    : "on " + v1cpuset.point) + "; " + found);
        }
        return v2(base, "no cpu controller found, assuming cgroup v2 at " + base + "; " + found);
    }

    private static List<Mount> fromMountinfo(String mountinfo, Path base) {
        List<Mount> out = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            String[] f = line.trim().split(" ");
            int dash = Arrays.asList(f).indexOf("-");
            if (dash < 5 || f.length < dash + 4) {
                continue;
            }
            String type = f[dash + 1];
            if (!"cgroup".equals(type) && !"cgroup2".equals(type)) {
                continue;
            }
            Path point;
            try {
                point = Path.of(unescape(f[4]));
            } catch (RuntimeException e) {
                continue;
            }
            if (!point.startsWith(base)) {
                continue; // not the host's (e.g. the agent container's own /sys/fs/cgroup)
            }
            boolean v2 = "cgroup2".equals(type);
            Set<String> controllers = new HashSet<>();
            if (v2) {
                controllers.addAll(v2Controllers(point));
            } else {
                for (String o : f[dash + 3].split(",")) {
                    if (!o.equals("rw") && !o.equals("ro") && (!o.contains("=") || o.startsWith("name="))) {
                        controllers.add(o);
                    }
                }
            }
            out.add(new Mount(point, v2, controllers));
        }
        return out;
    }

    /** "\040" and the like in a mountinfo path. */
    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                sb.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static Set<String> v2Controllers(Path root) {
        try {
            return new HashSet<>(Arrays.asList(HostFiles.read(root.resolve("cgroup.controllers")).split("\\s+")));
        } catch (IOException e) {
            return Set.of();
        }
    }

    /** What the files under base say when mountinfo does not: a v2 root, its "unified" child, v1 controller dirs. */
    private static List<Mount> probe(Path base) {
        List<Mount> out = new ArrayList<>();
        if (Files.isRegularFile(base.resolve("cgroup.controllers"))) {
            out.add(new Mount(base, true, v2Controllers(base)));
        }
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base)) {
            for (Path p : ds) {
                children.add(p);
            }
        } catch (IOException e) {
            return out;
        }
        children.sort(null);
        for (Path p : children) {
            if (Files.isRegularFile(p.resolve("cgroup.controllers"))) {
                out.add(new Mount(p, true, v2Controllers(p)));
                continue;
            }
            Set<String> names = new HashSet<>(Arrays.asList(p.getFileName().toString().split(",")));
            Set<String> controllers = new HashSet<>();
            if (names.contains("cpu") && Files.isRegularFile(p.resolve("cpu.cfs_period_us"))) {
                controllers.add("cpu");
            }
            if (names.contains("cpuset") && Files.isRegularFile(p.resolve("cpuset.cpus"))) {
                controllers.add("cpuset");
            }
            if (!controllers.isEmpty()) {
                out.add(new Mount(p, false, controllers));
            }
        }
        return out;
    }

    /**
     * The version chosen.
     *
     * @return v1 or v2
     */
    public CgroupVersion version() {
        return version;
    }

    /**
     * Why it was chosen and what was found, for the start-up log.
     *
     * @return reason
     */
    public String reason() {
        return reason;
    }

    /**
     * Where container cgroups are looked up: the unified mount (v2), the cpu controller's mount (v1).
     *
     * @return directory under the host root
     */
    public Path cpuRoot() {
        return cpu;
    }

    /**
     * The cpuset controller's mount.
     *
     * @return directory under the host root (the unified mount on v2), null on v1 without one
     */
    public Path cpusetRoot() {
        return cpuset;
    }

    /**
     * A container's cgroup from its path relative to the hierarchy's root.
     *
     * @param relative e.g. {@code kubepods/burstable/pod<uid>/<id>}
     * @return the cgroup, null if its (cpu controller's) directory does not exist
     */
    public ContainerCgroup at(String relative) {
        Path dir = cpu.resolve(relative);
        if (!Files.isDirectory(dir)) {
            return null;
        }
        if (version == CgroupVersion.V2) {
            return ContainerCgroup.v2(dir);
        }
        Path set = cpuset == null ? null : cpuset.resolve(relative);
        return ContainerCgroup.v1(dir, set != null && Files.isDirectory(set) ? set : null);
    }

    /**
     * One line for logs.
     *
     * @return e.g. "cgroup v1 (cpu /sys/fs/cgroup/cpu, cpuset /sys/fs/cgroup/cpuset)"
     */
    public String describe() {
        return version == CgroupVersion.V2 ? "cgroup v2 at " + cpu
                : "cgroup v1 (cpu " + cpu + ", cpuset " + (cpuset == null ? "not mounted" : cpuset) + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
