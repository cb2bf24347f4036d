// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import org.srv6int.codec.Addresses;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code srv6int-decode --hex HEX [--payload] | --pcap FILE}: decodes SRv6-INT
 * packets, INT report frames (UDP port 32766) or, with {@code --payload}, a
 * report's UDP payload, and prints every field as JSON. A frame that does not
 * decode prints {@code {"error": REASON, ...}} and the exit status is 1; bad
 * arguments or unreadable files exit with 2.
 */
public final class DecodeTool {

    private DecodeTool() {
    }

    private static Map<String, Object> decode(byte[] b, boolean payload) {
        return payload ? PacketJson.report(b, 0, b.length, false) : PacketJson.decodeFrame(b, 0, b.length);
    }

    private static int usage(PrintStream out, String msg) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(PacketJson.ERROR, "USAGE");
        m.put("description", msg + "; usage: srv6int-decode --hex HEX [--payload] | --pcap FILE [--payload]");
        out.print(Json.write(m));
        return 2;
    }

    /**
     * Runs the tool.
     *
     * @param args arguments
     * @param out  where the JSON goes
     * @return exit status
     */
    static int run(String[] args, PrintStream out) {
        String hex = null;
        String pcap = null;
        boolean payload = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--hex":
                    if (++i >= args.length) {
                        return usage(out, "--hex needs a value");
                    }
                    hex = args[i];
                    break;
                case "--pcap":
                    if (++i >= args.length) {
                        return usage(out, "--pcap needs a file");
                    }
                    pcap = args[i];
                    break;
                case "--payload":
                    payload = true;
                    break;
                default:
                    return usage(out, "unknown argument " + args[i]);
            }
        }
        if ((hex == null) == (pcap == null)) {
            return usage(out, "give exactly one of --hex and --pcap");
        }
        if (hex != null) {
            byte[] b;
            try {
                b = Addresses.fromHex(hex);
            } catch (IllegalArgumentException e) {
                return usage(out, "bad hex: " + e.getMessage());
            }
            Map<String, Object> m = decode(b, payload);
            out.print(Json.write(m));
            return m.containsKey(PacketJson.ERROR) ? 1 : 0;
        }
        List<byte[]> frames;
        try {
            frames = Pcap.read(Files.readAllBytes(Paths.get(pcap)));
        } catch (IOException e) {
            return usage(out, "cannot read " + pcap + ": " + e.getMessage());
        }
        List<Object> all = new ArrayList<>();
        boolean failed = false;
        for (int i = 0; i < frames.size(); i++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("index", i);
            Map<String, Object> d = decode(frames.get(i), payload);
            failed |= d.containsKey(PacketJson.ERROR);
            m.put("decoded", d);
            all.add(m);
        }
        out.print(Json.write(all));
        return failed ? 1 : 0;
    }

    /**
     * Entry point.
     *
     * @param args see class comment
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }
}
