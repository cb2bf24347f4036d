// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.model.VnfTelemetry;
import org.srv6int.app.rest.TelemetryCodecs;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Shows INT telemetry per chain and vNF, and the collector's counters.
 */
@Service
@Command(scope = "onos", name = "int-stats", description = "Shows INT telemetry of chains and vNFs")
public class IntStatsCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "id", description = "Chain id (default: all)")
    @Completion(SfcIdCompleter.class)
    String id;

    @Override
    protected void run() {
        TelemetryService t = service(TelemetryService.class);
        List<Sfc> sfcs = service(SfcService.class).getSfcs().stream()
                .filter(s -> id == null || s.id().equals(sfcId(id)))
                .sorted(Comparator.comparing(Sfc::id)).collect(Collectors.toList());
        if (id != null && sfcs.isEmpty()) {
            throw new IllegalArgumentException("chain " + id + " not found");
        }
        if (outputJson()) {
            ObjectNode root = mapper().createObjectNode();
            ObjectNode c = root.putObject("counters");
            t.counters().forEach(c::put);
            ArrayNode a = root.putArray("sfcs");
            for (Sfc s : sfcs) {
                ObjectNode o = a.addObject().put("sfcId", s.id().tag());
                t.sfcTelemetry(s.id()).ifPresent(x -> o.set("sfc",
                        new TelemetryCodecs.SfcTelemetryCodec().encode(x, this)));
                ArrayNode v = o.putArray("vnfs");
                t.vnfTelemetry(s.id()).forEach(x -> v.add(new TelemetryCodecs.VnfTelemetryCodec().encode(x, this)));
            }
            print("%s", root);
            return;
        }
        print("counters: %s", t.counters());
        for (Sfc s : sfcs) {
            Optional<SfcTelemetry> st = t.sfcTelemetry(s.id());
            if (st.isPresent()) {
                print("chain %s: %.0f pps, p95 E2E %d ns, max queue %d, reports %d", s.id(),
                      st.get().throughputPps(), st.get().p95E2eLatencyNanos(), st.get().maxQueueDepth(),
                      st.get().reports());
            } else {
                print("chain %s: no INT report yet", s.id());
            }
            for (VnfTelemetry v : t.vnfTelemetry(s.id())) {
                print("  vnf %s (%s): %.0f pps, p95 %d ns (Lmax %d), queue %d, samples %d", v.vnf(),
                      s.vnfs().get(v.vnf().index()).type(), v.throughputPps(), v.p95LatencyNanos(),
                      s.vnfs().get(v.vnf().index()).lmaxNanos(), v.queueDepth(), v.samples());
            }
        }
    }
}
