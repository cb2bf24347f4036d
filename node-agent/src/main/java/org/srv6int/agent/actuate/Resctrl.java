// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The resctrl filesystem: its {@code info} limits and one control group per
 * vNF whose {@code schemata} holds lines such as {@code L3:0=fff;1=fff} and
 * {@code MB:0=100;1=100} (the kernel may pad the resource name with spaces
 * on read; domain ids follow the cache or memory controller ids).
 */
public final class Resctrl {

    /** Where resctrl is mounted on the host. */
    public static final String RESCTRL_ROOT = "/sys/fs/resctrl";

    private final Path root;

    /**
     * Creates a view of the host's resctrl mount.
     *
     * @param host host files
     */
    public Resctrl(HostFiles host) {
        this.root = host.path(RESCTRL_ROOT);
    }

    /**
     * Whether the mount offers L3 cache allocation.
     *
     * @return true if info/L3/cbm_mask exists
     */
    public boolean hasL3() {
        return Files.isRegularFile(root.resolve("info/L3/cbm_mask"));
    }

    /**
     * Whether the mount offers memory bandwidth allocation.
     *
     * @return true if info/MB/bandwidth_gran exists
     */
    public boolean hasMb() {
        return Files.isRegularFile(root.resolve("info/MB/bandwidth_gran"));
    }

    /**
     * An info file.
     *
     * @param rel path under info/, e.g. "L3/cbm_mask"
     * @return its path
     */
    public Path info(String rel) {
        return root.resolve("info").resolve(rel);
    }

    /**
     * The control group directory of a vNF, created (mkdir, which makes the
     * kernel populate it) if missing.
     *
     * @param name group name
     * @return the directory
     * @throws IOException if it cannot be made or has no schemata
     */
    public Path group(String name) throws IOException {
        if (name.isEmpty() || name.contains("/") || name.startsWith(".") || "info".equals(name)) {
            throw new IOException("bad resctrl group name '" + name + "'");
        }
        Path dir = root.resolve(name);
        if (!Files.isDirectory(dir)) {
            Files.createDirectory(dir);
        }
        if (!Files.isRegularFile(dir.resolve("schemata"))) {
            throw new IOException(dir + ": resctrl group without a schemata file");
        }
        return dir;
    }

    /**
     * Moves every thread of a cgroup into a resctrl group (tasks takes one
     * thread id per write; threads spawned later inherit the group). Thread ids are
     * those of the agent's PID namespace on both sides: a cgroup lists a thread of
     * another PID namespace as 0, and resctrl takes 0 as the writer itself, so a 0
     * is never written (the agent needs the host's PIDs, the DaemonSet's hostPID).
     *
     * @param group resctrl group directory
     * @param cgroup the container (its threads: cgroup.threads on v2, tasks on v1)
     * @return threads moved; threads that exited meanwhile are skipped
     * @throws IOException if the thread list cannot be read, or its threads are all
     *     outside the agent's PID namespace
     */
    public static int assignThreads(Path group, ContainerCgroup cgroup) throws IOException {
        String threads = HostFiles.read(cgroup.threadsFile());
        int moved = 0;
        int hidden = 0;
        for (String tid : threads.split("\\s+")) {
            if (tid.isEmpty()) {
                continue;
            }
            if ("0".equals(tid)) {
                hidden++;
                continue;
            }
            try {
                HostFiles.write(group.resolve("tasks"), tid);
                moved++;
            } catch (IOException e) {
                // ESRCH: the thread exited between the read and the write
            }
        }
        if (hidden > 0 && moved == 0) {
            throw new IOException(cgroup.threadsFile() + ": its " + hidden + " threads read as 0, threads of "
                    + "another PID namespace: the agent needs the host's PIDs (hostPID) to name them to resctrl");
        }
        return moved;
    }

    /**
     * Reads one resource line of a schemata file.
     *
     * @param schemata the file
     * @param resource "L3" or "MB"
     * @return domain id to value text, in file order
     * @throws IOException if absent or malformed
     */
    public static Map<Integer, String> readLine(Path schemata, String resource) throws IOException {
        for (String line : HostFiles.read(schemata).split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || !line.substring(0, colon).trim().equals(resource)) {
                continue;
            }
            Map<Integer, String> out = new LinkedHashMap<>();
            for (String d : line.substring(colon + 1).trim().split(";")) {
                int eq = d.indexOf('=');
                if (eq < 0) {
                    throw new IOException(schemata + ": malformed " + resource + " domain '" + d + "'");
                }
                try {
                    out.put(Integer.parseInt(d.substring(0, eq).trim()), d.substring(eq + 1).trim());
                } catch (NumberFormatException e) {
                    throw new IOException(schemata + ": bad domain id in '" + d + "'", e);
                }
            }
            if (out.isEmpty()) {
                throw new IOException(schemata + ": empty " + resource + " line");
            }
            return out;
        }
        throw new IOException(schemata + ": no " + resource + " line");
    }

    /**
     * Rewrites one resource line of a schemata file, keeping the other lines
     * as read, in a single write (the kernel applies a multi-line write as
     * one update; a crash leaves either the old or the new schemata).
     *
     * @param schemata the file
     * @param resource "L3" or "MB"
     * @param value value for every domain the line has now
     * @throws IOException if the line is missing or the kernel refused the value
     */
    public static void writeLine(Path schemata, String resource, String value) throws IOException {
        Map<Integer, String> domains = readLine(schemata, resource);
        StringBuilder sb = new StringBuilder();
        for (String line : HostFiles.read(schemata).split("\n")) {
            int colon = line.indexOf(':');
            String name = colon < 0 ? "" : line.substring(0, colon).trim();
            if (name.isEmpty()) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(name.equals(resource) ? formatLine(resource, domains.keySet(), value)
                    : name + ":" + line.substring(colon + 1).trim());
        }
        HostFiles.write(schemata, sb.toString());
    }

    /**
     * Formats one schemata line with the same value in every domain.
     *
     * @param resource "L3" or "MB"
     * @param domains domain ids
     * @param value value text (hex mask or percent)
     * @return e.g. {@code L3:0=ff0;1=ff0}
     */
    public static String formatLine(String resource, Iterable<Integer> domains, String value) {
        StringBuilder sb = new StringBuilder(resource).append(':');
        boolean first = true;
        for (int d : domains) {
            if (!first) {
                sb.append(';');
            }
            first = false;
            sb.append(d).append('=').append(value);
        }
        return sb.toString();
    }
}
