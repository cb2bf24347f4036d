// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The host's kernel files (cgroupfs, resctrl, sysfs) under a root directory:
 * "/" on a host, "/host" in the DaemonSet, a temporary directory in tests.
 *
 * <p>Every write is one {@code write(2)} of the whole value on a file opened
 * without {@code O_CREAT}: kernel files apply such a write atomically, so a
 * crash can never leave half a value, and a missing file is an error rather
 * than a new regular file.
 */
public final class HostFiles {

    private final Path root;

    /**
     * Creates a view of the host under root.
     *
     * @param root directory that stands for "/"
     */
    public HostFiles(Path root) {
        this.root = root;
    }

    /**
     * The root.
     *
     * @return root directory
     */
    public Path root() {
        return root;
    }

    /**
     * Resolves an absolute host path (e.g. {@code /sys/fs/cgroup}) under the root.
     *
     * @param hostPath absolute path on the host
     * @return path under the root
     */
    public Path path(String hostPath) {
        String rel = hostPath.startsWith("/") ? hostPath.substring(1) : hostPath;
        return root.resolve(rel);
    }

    /**
     * Reads a small kernel file, trimmed.
     *
     * @param file the file
     * @return content without surrounding white space
     * @throws IOException if it cannot be read
     */
    public static String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
    }

    /**
     * Reads a kernel file holding one decimal number.
     *
     * @param file the file
     * @return the number
     * @throws IOException if it cannot be read or is not a number
     */
    public static long readLong(Path file) throws IOException {
        String s = read(file);
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IOException(file + ": expected a number, found '" + s + "'", e);
        }
    }

    /**
     * Writes a full value with one write call, like {@code echo value > file}.
     *
     * @param file an existing kernel file
     * @param value the value, a trailing newline is added
     * @throws IOException if the file is missing or the kernel refused the value
     */
    public static void write(Path file, String value) throws IOException {
        byte[] bytes = (value + "\n").getBytes(StandardCharsets.US_ASCII);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            int written = ch.write(buf);
            if (written != bytes.length) {
                throw new IOException(file + ": short write " + written + " of " + bytes.length);
            }
        } catch (NoSuchFileException e) {
            throw new IOException(file + ": no such kernel file", e);
        }
    }
}
