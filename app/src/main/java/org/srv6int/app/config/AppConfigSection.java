// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.config.basics.SubjectFactories;

import java.util.function.Supplier;

/**
 * One netcfg section under {@code apps/org.srv6int.app} that a component owns: registers its
 * config class, calls the component back whenever that section changes, and reads it. Components
 * that re-apply their settings on every change (metrics, exports) share this instead of each
 * repeating the registry plumbing.
 *
 * @param <C> the section's config class
 */
public final class AppConfigSection<C extends Config<ApplicationId>> {

    private final NetworkConfigRegistry registry;
    private final ApplicationId appId;
    private final Class<C> type;
    private final ConfigFactory<ApplicationId, C> factory;
    private final NetworkConfigListener listener;

    /**
     * Creates the section; nothing is registered until {@link #open()}.
     *
     * @param registry the netcfg registry
     * @param appId the app's id (the section's subject)
     * @param type config class
     * @param key the section's key under the app
     * @param create makes an empty config of the class
     * @param onChange called on every add, update or removal of the section
     */
    public AppConfigSection(NetworkConfigRegistry registry, ApplicationId appId, Class<C> type, String key,
                            Supplier<C> create, Runnable onChange) {
        this.registry = registry;
        this.appId = appId;
        this.type = type;
        this.factory = new ConfigFactory<>(SubjectFactories.APP_SUBJECT_FACTORY, type, key) {
            @Override
            public C createConfig() {
                return create.get();
            }
        };
        this.listener = new NetworkConfigListener() {
            @Override
            public boolean isRelevant(NetworkConfigEvent e) {
                return e.configClass() == type;
            }

            @Override
            public void event(NetworkConfigEvent e) {
                onChange.run();
            }
        };
    }

    /** Registers the config class and starts following changes. */
    public void open() {
        registry.registerConfigFactory(factory);
        registry.addListener(listener);
    }

    /** Stops following changes and unregisters the config class. */
    public void close() {
        registry.removeListener(listener);
        registry.unregisterConfigFactory(factory);
    }

    /**
     * Reads the section as netcfg holds it now.
     *
     * @return config, null when the section is absent
     */
    public C get() {
        return registry.getConfig(appId, type);
    }
}
