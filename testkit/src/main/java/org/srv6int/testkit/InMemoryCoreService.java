// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.IdGenerator;
import org.onosproject.core.Version;
import org.osgi.service.component.annotations.Component;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Core service: application ids numbered from 1 in registration order (a name registered
 * twice keeps its id, as ONOS's ApplicationIdStore does) and one counter per id topic.
 * Pre-deactivation hooks are kept and run by {@link #runPreDeactivateHooks(String)}.
 */
@Component(immediate = true, service = CoreService.class)
public class InMemoryCoreService implements CoreService {

    private static final Version VERSION = Version.version("2.7.0");

    private final Map<String, ApplicationId> byName = new ConcurrentHashMap<>();
    private final Map<Short, ApplicationId> byId = new ConcurrentHashMap<>();
    private final Map<String, Runnable> hooks = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

    @Override
    public Version version() {
        return VERSION;
    }

    @Override
    public Set<ApplicationId> getAppIds() {
        return Set.copyOf(byName.values());
    }

    @Override
    public ApplicationId getAppId(Short id) {
        return byId.get(id);
    }

    @Override
    public ApplicationId getAppId(String name) {
        return byName.get(name);
    }

    @Override
    public synchronized ApplicationId registerApplication(String name) {
        return byName.computeIfAbsent(name, n -> {
            ApplicationId id = new DefaultApplicationId(byName.size() + 1, n);
            byId.put(id.id(), id);
            return id;
        });
    }

    @Override
    public ApplicationId registerApplication(String name, Runnable preDeactivate) {
        ApplicationId id = registerApplication(name);
        hooks.put(name, preDeactivate);
        return id;
    }

    /**
     * Runs (and forgets) the pre-deactivation hook an application registered.
     *
     * @param name application name
     * @return true when there was one
     */
    public boolean runPreDeactivateHooks(String name) {
        Runnable r = hooks.remove(name);
        if (r != null) {
            r.run();
        }
        return r != null;
    }

    @Override
    public IdGenerator getIdGenerator(String topic) {
        AtomicLong c = counters.computeIfAbsent(topic, t -> new AtomicLong());
        return c::incrementAndGet;
    }
}
