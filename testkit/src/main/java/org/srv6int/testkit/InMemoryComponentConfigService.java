// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import java.io.IOException;
import java.io.InputStream;
import com.google.common.collect.ImmutableSet;
import org.onosproject.cfg.ComponentConfigService;
import org.onosproject.cfg.ConfigProperty;
import org.osgi.service.component.annotations.Component;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Component configuration: registers the {@link ConfigProperty} definitions a component
 * class declares in its {@code OSGI-INF/<class>.cfgdef} resource (what onos-maven-plugin
 * writes) and keeps values set for them. Setting a property nobody registered fails, as in
 * ONOS. Values are not pushed to ConfigurationAdmin (no component is reconfigured).
 */
@Component(immediate = true, service = ComponentConfigService.class)
public class InMemoryComponentConfigService implements ComponentConfigService {

    private final Map<String, Map<String, ConfigProperty>> properties = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> preset = new LinkedHashMap<>();

    @Override
    public synchronized Set<String> getComponentNames() {
        return ImmutableSet.copyOf(properties.keySet());
    }

    @Override
    public synchronized void registerProperties(Class<?> componentClass) {
        String name = componentClass.getName();
        Map<String, ConfigProperty> defs = new LinkedHashMap<>();
        String resource = componentClass.getSimpleName() + ".cfgdef";
        try (InputStream in = componentClass.getResourceAsStream(resource)) {
            if (in != null) {
                for (ConfigProperty p : ConfigPropertyDefinitions.read(in)) {
                    defs.put(p.name(), p);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + " of " + name, e);
        }
        Map<String, String> pre = preset.getOrDefault(name, Map.of());
        pre.forEach((k, v) -> {
            ConfigProperty d = defs.get(k);
            if (d != null) {
                defs.put(k, ConfigProperty.setProperty(d, v));
            }
        });
        properties.put(name, defs);
    }

    @Override
    public synchronized void unregisterProperties(Class<?> componentClass, boolean clear) {
        properties.remove(componentClass.getName());
        if (clear) {
            preset.remove(componentClass.getName());
        }
    }

    @Override
    public synchronized Set<ConfigProperty> getProperties(String componentName) {
        Map<String, ConfigProperty> p = properties.get(componentName);
        return p == null ? null : ImmutableSet.copyOf(p.values());
    }

    @Override
    public synchronized void setProperty(String componentName, String name, String value) {
        Map<String, ConfigProperty> p = properties.get(componentName);
        if (p == null || !p.containsKey(name)) {
            throw new IllegalArgumentException("no property " + name + " registered by " + componentName);
        }
        p.put(name, ConfigProperty.setProperty(p.get(name), value));
        preset.computeIfAbsent(componentName, n -> new LinkedHashMap<>()).put(name, value);
    }

    @Override
    public synchronized void preSetProperty(String componentName, String name, String value) {
        preset.computeIfAbsent(componentName, n -> new LinkedHashMap<>()).put(name, value);
        Map<String, ConfigProperty> p = properties.get(componentName);
        if (p != null && p.containsKey(name)) {
            p.put(name, ConfigProperty.setProperty(p.get(name), value));
        }
    }

    @Override
    public void preSetProperty(String componentName, String name, String value, boolean override) {
        synchronized (this) {
            if (!override && preset.getOrDefault(componentName, Map.of()).containsKey(name)) {
                return;
            }
        }
        preSetProperty(componentName, name, value);
    }

    @Override
    public synchronized void unsetProperty(String componentName, String name) {
        Map<String, ConfigProperty> p = properties.get(componentName);
        if (p != null && p.containsKey(name)) {
            p.put(name, ConfigProperty.resetProperty(p.get(name)));
        }
        preset.getOrDefault(componentName, new LinkedHashMap<>()).remove(name);
    }

    @Override
    public synchronized ConfigProperty getProperty(String componentName, String attribute) {
        Map<String, ConfigProperty> p = properties.get(componentName);
        return p == null ? null : p.get(attribute);
    }
}
