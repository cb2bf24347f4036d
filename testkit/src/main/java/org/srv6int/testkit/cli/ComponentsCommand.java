// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit.cli;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Lists Declarative Services components and their states from the container's
 * ServiceComponentRuntime (what Karaf's scr:list shows; its command bundle cannot be
 * fetched here). One line per component configuration:
 * {@code STATE bundle component [missing: reference ...]}; a component with no
 * configuration is DISABLED or UNSATISFIED (no configuration).
 */
@Service
@Command(scope = "testkit", name = "components", description = "Lists DS components and their states")
public class ComponentsCommand implements Action {

    @Argument(index = 0, name = "bundle", description = "Only bundles whose symbolic name starts with this")
    String prefix;

    @Reference
    ServiceComponentRuntime scr;

    @Reference
    BundleContext context;

    private static String state(int s) {
        switch (s) {
            case ComponentConfigurationDTO.ACTIVE:
                return "ACTIVE";
            case ComponentConfigurationDTO.SATISFIED:
                return "SATISFIED";
            case ComponentConfigurationDTO.UNSATISFIED_REFERENCE:
                return "UNSATISFIED_REFERENCE";
            case ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION:
                return "UNSATISFIED_CONFIGURATION";
            case ComponentConfigurationDTO.FAILED_ACTIVATION:
                return "FAILED_ACTIVATION";
            default:
                return "STATE_" + s;
        }
    }

    @Override
    public Object execute() {
        List<String> lines = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            if (prefix != null && (b.getSymbolicName() == null || !b.getSymbolicName().startsWith(prefix))) {
                continue;
            }
            Collection<ComponentDescriptionDTO> ds = scr.getComponentDescriptionDTOs(b);
            for (ComponentDescriptionDTO d : ds) {
                Collection<ComponentConfigurationDTO> cs = scr.getComponentConfigurationDTOs(d);
                if (!scr.isComponentEnabled(d)) {
                    lines.add(String.format("DISABLED %s %s", b.getSymbolicName(), d.name));
                } else if (cs.isEmpty()) {
                    lines.add(String.format("UNSATISFIED %s %s (no configuration)", b.getSymbolicName(), d.name));
                }
                for (ComponentConfigurationDTO c : cs) {
                    StringBuilder sb = new StringBuilder(String.format("%s %s %s", state(c.state),
                                                                       b.getSymbolicName(), d.name));
                    if (c.unsatisfiedReferences != null && c.unsatisfiedReferences.length > 0) {
                        sb.append(" missing:");
                        for (UnsatisfiedReferenceDTO r : c.unsatisfiedReferences) {
                            sb.append(' ').append(r.name);
                        }
                    }
                    if (c.failure != null) {
                        sb.append(" failure: ").append(c.failure.lines().findFirst().orElse(""));
                    }
                    lines.add(sb.toString());
                }
            }
        }
        lines.forEach(System.out::println);
        return null;
    }
}
