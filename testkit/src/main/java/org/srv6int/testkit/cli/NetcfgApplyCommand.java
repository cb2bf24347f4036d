// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.config.SubjectFactory;

import java.io.IOException;

/**
 * Applies one netcfg entry through the registry, as ONOS's REST
 * {@code POST /onos/v1/network/configuration} does for each entry:
 * {@code testkit:netcfg-apply apps org.srv6int.app srv6int '{"collector": {...}}'}.
 * A JSON that does not parse, or a config its factory finds invalid, is refused with the
 * reason and nothing is stored.
 */
@Service
@Command(scope = "testkit", name = "netcfg-apply", description = "Applies a netcfg entry through the registry")
public class NetcfgApplyCommand implements Action {

    @Argument(index = 0, name = "subjectClassKey", description = "e.g. apps, devices", required = true)
    String subjectClassKey;

    @Argument(index = 1, name = "subject", description = "e.g. org.srv6int.app, device:sw4", required = true)
    String subjectKey;

    @Argument(index = 2, name = "configKey", description = "e.g. srv6int", required = true)
    String configKey;

    @Argument(index = 3, name = "json", description = "the entry as JSON (one argument)", required = true)
    String json;

    @Reference
    NetworkConfigRegistry registry;

    @Override
    public Object execute() {
        JsonNode node;
        try {
            node = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            System.out.println("Error: not JSON: " + e.getMessage().lines().findFirst().orElse(""));
            return null;
        }
        SubjectFactory<?> f = registry.getSubjectFactory(subjectClassKey);
        if (f == null) {
            System.out.println("Error: no config factory registered for subjects '" + subjectClassKey + "'");
            return null;
        }
        Object subject = f.createSubject(subjectKey);
        try {
            Config<?> c = registry.applyConfig(subjectClassKey, subject, configKey, node);
            System.out.println(c == null ? "pending (no factory for " + configKey + " yet)"
                                        : "applied " + subjectClassKey + "/" + subjectKey + "/" + configKey);
        } catch (RuntimeException e) {
            System.out.println("Error: " + e);
        }
        return null;
    }
}
