// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.junit.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.junit.Assume.assumeTrue;

/**
 * The actuators on this machine's real cgroup v1 hierarchy (the project's CI machines mount
 * v1): a cgroup of the test's own ({@code srv6int-test-<random>} under the cpu and, if
 * writable, the cpuset mount) laid out like a kubelet's cgroupfs-driver container
 * ({@code kubepods/burstable/pod<uid>/<id>} below it), found by {@link CgroupLocator}, a busy
 * loop moved into it, and its CPU use measured from {@code /proc/<pid>/schedstat} at a quota
 * of 200 m and then 800 m. Skipped, with the reason printed, where no writable v1 cpu
 * controller exists. Everything it creates is removed afterwards, on failure too (and by a
 * shutdown hook should the JVM be stopped meanwhile).
 */
public class RealCgroupV1Test {

    private static final String UID = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
    private static final String ID = "feedc0de";
    private static final String REL = "kubepods/burstable/pod" + UID + "/" + ID;
    private static final long WINDOW_MS = 1000;

    private final List<Path> made = new ArrayList<>();
    private Process busy;

    private static void skip(String why) {
        System.out.println("RealCgroupV1Test skipped: " + why);
        assumeTrue(why, false);
    }

    @Test
    public void quotaThrottlesABusyLoopAndCpusetPinsItOnTheRealV1Hierarchy() throws Exception {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            skip("not Linux");
        }
        CgroupHierarchy host = CgroupHierarchy.detect(new HostFiles(Path.of("/")), null);
        System.out.println("RealCgroupV1Test: " + host.describe() + ": " + host.reason());
        if (host.version() != CgroupVersion.V1) {
            skip("no cgroup v1 cpu controller on this host (" + host.describe() + ")");
        }
        String name = "srv6int-test-" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        Path cpuTop = host.cpuRoot().resolve(name);
        Thread hook = new Thread(this::cleanUp, "srv6int-test-cgroup-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            try {
                mkdirs(cpuTop, REL);
            } catch (IOException e) {
                skip("cpu controller at " + host.cpuRoot() + " not writable: " + e);
            }
            Path cpusetTop = null;
            if (host.cpusetRoot() != null) {
                try {
                    Path top = host.cpusetRoot().resolve(name);
                    mkdirs(top, "");
                    // v1 creates a cpuset empty (no task may join it) unless its parent clones
                    HostFiles.write(top.resolve("cpuset.cpus"), HostFiles.read(host.cpusetRoot().resolve(
                            "cpuset.effective_cpus")));
                    HostFiles.write(top.resolve("cpuset.mems"), HostFiles.read(host.cpusetRoot().resolve(
                            "cpuset.effective_mems")));
                    HostFiles.write(top.resolve("cgroup.clone_children"), "1");
                    mkdirs(top, REL, true);
                    cpusetTop = top;
                } catch (IOException e) {
                    System.out.println("RealCgroupV1Test: cpuset at " + host.cpusetRoot() + " not writable (" + e
                            + "): the cpuset part is skipped");
                }
            }
            CgroupLocator locator = new CgroupLocator(CgroupHierarchy.v1(cpuTop, cpusetTop, "test"));
            ContainerCgroup cg = locator.locate(UID, "containerd://" + ID);
            assertEquals(cpuTop.resolve(REL), cg.dir());
            assertEquals(cpusetTop == null ? null : cpusetTop.resolve(REL), cg.cpusetDir());

            busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
            long pid = busy.pid();
            HostFiles.write(cg.procsFile(), Long.toString(pid));
            if (cg.cpusetDir() != null) {
                HostFiles.write(cg.cpusetDir().resolve("cgroup.procs"), Long.toString(pid));
            }
            assertTrue(HostFiles.read(cg.threadsFile()).contains(Long.toString(pid)));
            // The test measures the quota, not the neighbours: with a share ten times the default
            // (on the test's top cgroup, the one that competes with the machine's other tasks) the
            // loop is not starved by a loaded machine (for the ~3 s it runs).
            HostFiles.write(cpuTop.resolve("cpu.shares"), "10240");

            CpuQuotaActuator quota = new CpuQuotaActuator(List.of(cg), CpuQuotaActuator.DEFAULT_PERIOD_US);
            assertEquals(Long.MAX_VALUE, quota.read(0));
            quota.write(0, 200, new long[] {200});
            assertEquals(200, quota.read(0));
            assertEquals("20000", HostFiles.read(cg.quotaFile()));
            long[] before = quota.throttling(0); // cpu.stat through the actuator, as the loop reads it
            double low = usage(pid);
            long[] after = quota.throttling(0);
            long throttledLow = after[1] - before[1];
            long periodsLow = after[0] - before[0];
            quota.write(0, 800, new long[] {800});
            assertEquals(800, quota.read(0));
            double high = 0;
            for (int i = 0; i < 3 && high < 0.45; i++) {
                high = Math.max(high, usage(pid)); // a loaded machine may hold the loop back once
            }
            System.out.printf(Locale.ROOT, "RealCgroupV1Test: busy loop in %s: quota 200m -> %.3f core "
                    + "(%d periods throttled in %d ms), quota 800m -> %.3f core%n", cg.dir(), low, throttledLow,
                    WINDOW_MS, high);
            assertTrue("at 200m the loop got " + low + " core", low <= 0.3);
            assertTrue("at 200m the kernel throttled " + throttledLow + " periods", throttledLow >= 5);
            // a busy loop at 200m runs out of quota in every period it runs in: the loop's signal to raise
            assertTrue("at 200m throttled " + throttledLow + " of " + periodsLow + " periods",
                    periodsLow >= throttledLow && throttledLow * 2 >= periodsLow);
            assertTrue("at 800m the loop got " + high + " core (200m: " + low + ")", high >= 0.45 && high >= low + 0.2);

            // v1 refuses a child's quota above an ancestor's (v2 would take it and cap): a pod's limit
            quota.write(0, 200, new long[] {200});
            HostFiles.write(cpuTop.resolve("cpu.cfs_quota_us"), "50000");
            try {
                quota.write(0, 800, new long[] {800});
                fail("a quota above the parent's was accepted");
            } catch (IOException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("refused (cgroup v1 refuses a quota/period above"));
                System.out.println("RealCgroupV1Test: 800m under a 500m parent: " + e.getMessage());
            }
            assertEquals("the old quota stands", 200, quota.read(0));

            if (cg.cpusetDir() != null) {
                String cpu = Integer.toString(CpusetActuator.effectiveCpus(cg).nextSetBit(0));
                String mem = Integer.toString(CpuList.parse(HostFiles.read(cg.cpusetFile("mems"))).nextSetBit(0));
                CpusetActuator.pin(cg, cpu, mem);
                assertEquals(cpu, status(pid, "Cpus_allowed_list"));
                assertEquals(mem, status(pid, "Mems_allowed_list"));
                assertEquals("1", HostFiles.read(cg.cpusetDir().resolve("cpuset.memory_migrate")));
                System.out.println("RealCgroupV1Test: pinned to cpu " + cpu + ", mems " + mem + " through "
                        + cg.cpusetDir());
            }
        } finally {
            cleanUp();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook runs (and finds nothing left)
            }
        }
    }

    private void mkdirs(Path top, String rel) throws IOException {
        mkdirs(top, rel, false);
    }

    private void mkdirs(Path top, String rel, boolean topExists) throws IOException {
        Path p = top;
        if (!topExists) {
            Files.createDirectory(p);
            made.add(p);
        }
        for (String part : rel.isEmpty() ? new String[0] : rel.split("/")) {
            p = p.resolve(part);
            Files.createDirectory(p);
            made.add(p);
        }
    }

    /** CPU time of the process over one window, in cores. */
    private static double usage(long pid) throws IOException, InterruptedException {
        Thread.sleep(200); // the new quota's first periods
        long t0 = System.nanoTime();
        long c0 = cpuNanos(pid);
        Thread.sleep(WINDOW_MS);
        long c1 = cpuNanos(pid);
        long t1 = System.nanoTime();
        return (double) (c1 - c0) / (t1 - t0);
    }

    /** Time on a CPU, ns: schedstat's first field, else utime + stime of stat (clock ticks of 10 ms). */
    private static long cpuNanos(long pid) throws IOException {
        Path sched = Path.of("/proc/" + pid + "/schedstat");
        if (Files.exists(sched)) {
            long ns = Long.parseLong(HostFiles.read(sched).split("\\s+")[0]);
            if (ns > 0) {
                return ns;
            }
        }
        String stat = HostFiles.read(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }

    private static String status(long pid, String key) throws IOException {
        for (String line : HostFiles.read(Path.of("/proc/" + pid + "/status")).split("\n")) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).trim();
            }
        }
        throw new IOException("/proc/" + pid + "/status: no " + key);
    }

    /** Stops the loop and removes the cgroups, deepest first; says what it could not remove. */
    private synchronized void cleanUp() {
        if (busy != null) {
            busy.destroyForcibly();
            try {
                busy.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            busy = null;
        }
        List<Path> dirs = new ArrayList<>(made);
        Collections.reverse(dirs);
        for (Path d : dirs) {
            IOException last = null;
            for (int i = 0; i < 50 && Files.exists(d); i++) {
                try {
                    Files.delete(d); // rmdir: a cgroup goes once it has no task and no child
                } catch (IOException e) {
                    last = e;
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            if (Files.exists(d)) {
                System.out.println("RealCgroupV1Test: could not remove " + d + ": " + last);
            }
        }
        made.clear();
    }
}
