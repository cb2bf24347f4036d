// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The pod-interface lookup as the DaemonSet runs it, for tests/ci.d/45-ovs.sh: started under
 * {@code unshare --pid --fork --mount-proc setpriv --bounding-set=-all,+net_admin,+net_raw}
 * in the worker's network namespace, it checks that it has exactly the capabilities it was
 * given and no host PIDs (it is PID 1 of a PID namespace of its own and sees only its own
 * processes), then finds each pod's host veth by the MAC a network-status annotation would
 * carry. With {@code --expect-eacces} (started with no capability at all) it checks that the
 * kernel refuses the lookup (EACCES) with a clear error instead.
 *
 * <p>usage: {@code PodInterfacesCheck [--expect-eacces] CAPEFF_HEX POD_INTERFACE HOST_IF MAC
 * [HOST_IF MAC ...]}; prints one line per check and {@code N passed, M failed}; exit 1 on a
 * failure.
 */
public final class PodInterfacesCheck {

    private static int passed;
    private static int failed;

    private PodInterfacesCheck() {
    }

    private static void check(String what, boolean ok) {
        System.out.println((ok ? "ok   " : "FAIL ") + what);
        if (ok) {
            passed++;
        } else {
            failed++;
        }
    }

    /**
     * Runs the check.
     *
     * @param args see the class comment
     * @throws IOException if /proc cannot be read
     */
    public static void main(String[] args) throws IOException {
        int a = 0;
        boolean eperm = args.length > 0 && "--expect-eacces".equals(args[0]);
        if (eperm) {
            a++;
        }
        if (args.length - a < 4 || (args.length - a) % 2 != 0) {
            System.err.println("usage: PodInterfacesCheck [--expect-eacces] CAPEFF_HEX POD_INTERFACE HOST_IF MAC "
                    + "[HOST_IF MAC ...]");
            System.exit(2);
        }
        long want = Long.parseLong(args[a++], 16);
        String capEff = "";
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("CapEff:")) {
                capEff = l.substring(7).trim();
            }
        }
        check("effective capabilities " + capEff + " (want " + Long.toHexString(want) + ")",
                !capEff.isEmpty() && Long.parseLong(capEff, 16) == want);
        int pids = 0;
        try (DirectoryStream<Path> ls = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path ignored : ls) {
                pids++;
            }
        }
        check("a PID namespace of its own: PID " + ProcessHandle.current().pid() + ", " + pids
                + " processes visible in /proc", ProcessHandle.current().pid() == 1 && pids < 5);
        PodInterfaces finder = new PodInterfaces(args[a++]);
        for (; a + 1 < args.length; a += 2) {
            String host = args[a];
            String status = "[{\"name\":\"sfc\",\"interface\":\"" + finder.podInterface() + "\",\"mac\":\""
                    + args[a + 1] + "\"}]";
            try {
                String got = finder.hostSide(status);
                check(finder.podInterface() + " " + args[a + 1] + " -> " + got + " (want " + (eperm ? "EACCES" : host)
                        + ")", !eperm && host.equals(got));
            } catch (PodInterfaces.LookupException e) {
                check(e.failure().label() + ": " + e.getMessage(), eperm && e.failure() == PodInterfaces.Failure.NETLINK
                        && e.getMessage().contains("EACCES (the agent needs CAP_NET_ADMIN)"));
            }
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
