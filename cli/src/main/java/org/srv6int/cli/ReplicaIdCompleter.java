// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.cli.AbstractChoicesCompleter;
import org.srv6int.app.api.VnfInventoryService;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Completes replica ids ({@code <chain>/<index>/<name>}).
 */
@Service
public class ReplicaIdCompleter extends AbstractChoicesCompleter {

    @Override
    public List<String> choices() {
        return Srv6IntCommand.service(VnfInventoryService.class).getReplicas().stream()
                .map(r -> r.id().toString()).sorted().collect(Collectors.toList());
    }
}
