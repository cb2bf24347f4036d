// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.provider.ProviderId;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's testbed as ONOS knows it: switches SW1..SW4 in a row (SWn port 2 to SW(n+1)
 * port 1; Worker 1 on SW2, Worker 2 on SW3) and its netcfg, the same file the app's tests
 * read (tests/fixtures/paper-testbed-netcfg.json).
 */
public final class TestbedNetcfg {

    /** SW1 (ingress). */
    public static final DeviceId SW1 = DeviceId.deviceId("of:0000000000000001");
    /** SW2 (Worker 1). */
    public static final DeviceId SW2 = DeviceId.deviceId("of:0000000000000002");
    /** SW3 (Worker 2). */
    public static final DeviceId SW3 = DeviceId.deviceId("of:0000000000000003");
    /** SW4 (egress). */
    public static final DeviceId SW4 = DeviceId.deviceId("of:0000000000000004");
    /** All switches. */
    public static final List<DeviceId> SWITCHES = List.of(SW1, SW2, SW3, SW4);

    private static final ProviderId PID = new ProviderId("twin", "srv6int");

    private TestbedNetcfg() {
    }

    /**
     * Returns the directed links (both directions of each cable).
     *
     * @return links
     */
    public static List<Link> links() {
        List<Link> links = new ArrayList<>();
        for (int i = 0; i < SWITCHES.size() - 1; i++) {
            ConnectPoint a = new ConnectPoint(SWITCHES.get(i), PortNumber.portNumber(2));
            ConnectPoint b = new ConnectPoint(SWITCHES.get(i + 1), PortNumber.portNumber(1));
            links.add(link(a, b));
            links.add(link(b, a));
        }
        return links;
    }

    private static Link link(ConnectPoint src, ConnectPoint dst) {
        return DefaultLink.builder().providerId(PID).src(src).dst(dst).type(Link.Type.DIRECT)
                .state(Link.State.ACTIVE).build();
    }

    /**
     * Returns the netcfg document ("apps" and "devices"), a fresh copy each call.
     *
     * @return root node
     */
    public static JsonNode netcfg() {
        try (InputStream in = TestbedNetcfg.class.getResourceAsStream("paper-testbed-netcfg.json")) {
            if (in == null) {
                throw new IllegalStateException("paper-testbed-netcfg.json is not on the class path");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
