// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import org.srv6int.codec.Addresses;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code srv6int-pcap <vectors-dir-or-json> out.pcap}: writes the frames of a
 * golden vector set (a directory, in {@code index.json} order, or one vector
 * JSON file) to a classic pcap file.
 */
public final class PcapTool {

    private PcapTool() {
    }

    /**
     * Reads the frames of a vector directory or file.
     *
     * @param in directory or JSON file
     * @return frames in order
     * @throws IOException if a file cannot be read or is not a vector
     */
    @SuppressWarnings("unchecked")
    public static List<byte[]> readVectors(Path in) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(in)) {
            Path idx = in.resolve("index.json");
            if (Files.exists(idx)) {
                Map<String, Object> m = (Map<String, Object>) Json.parse(read(idx));
                for (Object n : (List<Object>) m.get("vectors")) {
                    files.add(in.resolve(n + ".json"));
                }
            } else {
                try (Stream<Path> s = Files.list(in)) {
                    files = s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
                }
            }
        } else {
            files.add(in);
        }
        List<byte[]> frames = new ArrayList<>();
        for (Path f : files) {
            Object o;
            try {
                o = Json.parse(read(f));
            } catch (IllegalArgumentException e) {
                throw new IOException(f + ": " + e.getMessage(), e);
            }
            if (!(o instanceof Map) || !(((Map<String, Object>) o).get("hex") instanceof String)) {
                throw new IOException(f + ": not a vector (no \"hex\" string)");
            }
            try {
                frames.add(Addresses.fromHex((String) ((Map<String, Object>) o).get("hex")));
            } catch (IllegalArgumentException e) {
                throw new IOException(f + ": " + e.getMessage(), e);
            }
        }
        return frames;
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    /**
     * Runs the tool.
     *
     * @param args input and output paths
     * @return exit status
     */
    static int run(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: srv6int-pcap <vectors-dir-or-json> out.pcap");
            return 2;
        }
        try {
            List<byte[]> frames = readVectors(Paths.get(args[0]));
            Files.write(Paths.get(args[1]), Pcap.write(frames));
            System.err.println("wrote " + frames.size() + " frames to " + args[1]);
            return 0;
        } catch (IOException e) {
            System.err.println("srv6int-pcap: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Entry point.
     *
     * @param args see class comment
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }
}
