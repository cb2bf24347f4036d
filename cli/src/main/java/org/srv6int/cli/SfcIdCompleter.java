// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.cli.AbstractChoicesCompleter;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Completes chain ids.
 */
@Service
public class SfcIdCompleter extends AbstractChoicesCompleter {

    @Override
    public List<String> choices() {
        return Srv6IntCommand.service(SfcService.class).getSfcs().stream()
                .map(Sfc::id).sorted().map(Object::toString).collect(Collectors.toList());
    }
}
