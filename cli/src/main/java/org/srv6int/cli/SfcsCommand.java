// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.rest.SfcCodec;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lists chains.
 */
@Service
@Command(scope = "onos", name = "sfcs", description = "Lists service function chains")
public class SfcsCommand extends Srv6IntCommand {

    @Override
    protected void run() {
        List<Sfc> sfcs = service(SfcService.class).getSfcs().stream()
                .sorted(Comparator.comparing(Sfc::id)).collect(Collectors.toList());
        if (outputJson()) {
            ArrayNode a = mapper().createArrayNode();
            SfcCodec codec = new SfcCodec();
            sfcs.forEach(s -> a.add(codec.encode(s, this)));
            print("%s", a);
            return;
        }
        for (Sfc s : sfcs) {
            print("id=%s, name=%s, ingress=%s, egress=%s, classifier=%s->%s proto=%s sport=%s dport=%s, "
                          + "int=1/%s, vnfs=[%s]",
                  s.id(), s.name(), s.ingress(), s.egress(), s.classifier().srcPrefix(),
                  s.classifier().dstPrefix(), s.classifier().ipProto(), s.classifier().l4SrcPort(),
                  s.classifier().l4DstPort(), s.intSamplingRate(),
                  s.vnfs().stream().map(VnfSpec::type).collect(Collectors.joining(", ")));
        }
    }
}
