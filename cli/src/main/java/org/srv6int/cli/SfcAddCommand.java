// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onlab.packet.IpPrefix;
import org.onosproject.cli.net.ConnectPointCompleter;
import org.onosproject.net.ConnectPoint;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.VnfSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Adds a chain.
 */
@Service
@Command(scope = "onos", name = "sfc-add",
        description = "Adds a service function chain, e.g. sfc-add 1 of:0000000000000001/1 "
                + "of:0000000000000004/2 10.0.1.0/24 10.0.4.0/24 fwd:1000000 ndpi:1000000")
public class SfcAddCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "id", description = "Chain id (SRH Tag), 1..65535", required = true)
    String id;

    @Argument(index = 1, name = "ingress", description = "Ingress connect point", required = true)
    @Completion(ConnectPointCompleter.class)
    String ingress;

    @Argument(index = 2, name = "egress", description = "Egress connect point", required = true)
    @Completion(ConnectPointCompleter.class)
    String egress;

    @Argument(index = 3, name = "src", description = "Source prefix", required = true)
    String src;

    @Argument(index = 4, name = "dst", description = "Destination prefix", required = true)
    String dst;

    @Argument(index = 5, name = "vnfs", description = "vNFs in order as type:LmaxNs", multiValued = true)
    List<String> vnfs = new ArrayList<>();

    @Option(name = "--name", description = "Chain name")
    String name;

    @Option(name = "--proto", description = "IP protocol, 0 = any")
    int proto;

    @Option(name = "--sport", description = "L4 source port, 0 = any")
    int sport;

    @Option(name = "--dport", description = "L4 destination port, 0 = any")
    int dport;

    @Option(name = "--int-rate", description = "INT on 1 in k packets")
    int intRate = 1;

    @Override
    protected void run() {
        List<VnfSpec> specs = new ArrayList<>();
        for (String v : vnfs) {
            int colon = v.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("vNF must be type:LmaxNs, got " + v);
            }
            try {
                specs.add(new VnfSpec(v.substring(0, colon), Long.parseLong(v.substring(colon + 1))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Lmax of " + v + " must be a number of ns", e);
            }
        }
        Sfc sfc = Sfc.builder().id(sfcId(id)).name(name)
                .ingress(ConnectPoint.deviceConnectPoint(ingress))
                .egress(ConnectPoint.deviceConnectPoint(egress))
                .classifier(new FlowClassifier(IpPrefix.valueOf(src), IpPrefix.valueOf(dst), proto, sport, dport))
                .vnfs(specs).intSamplingRate(intRate).build();
        service(SfcService.class).addSfc(sfc);
        print("Added chain %s", sfc.id());
    }
}
