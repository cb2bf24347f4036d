// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.rest.SfcPathsCodec;

import java.util.List;

/**
 * Shows a chain's segment lists.
 */
@Service
@Command(scope = "onos", name = "sfc-paths", description = "Shows a chain's segment lists and weights")
public class SfcPathsCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "id", description = "Chain id", required = true)
    @Completion(SfcIdCompleter.class)
    String id;

    @Override
    protected void run() {
        SfcId sid = sfcId(id);
        if (service(SfcService.class).getSfc(sid).isEmpty()) {
            throw new IllegalArgumentException("chain " + sid + " not found");
        }
        SfcPaths p = service(SfcPathService.class).getPaths(sid).orElse(new SfcPaths(sid, List.of()));
        if (outputJson()) {
            print("%s", new SfcPathsCodec().encode(p, this));
            return;
        }
        if (p.segmentLists().isEmpty()) {
            print("chain %s has no segment list (a vNF without active replica, or no route)", sid);
        }
        for (SegmentList l : p.segmentLists()) {
            print("weight=%s/%s, segments=%s, switches=%s, replicas=%s", l.weight(), p.totalWeight(),
                  l.segments(), l.switchPath(), l.replicas());
        }
    }
}
