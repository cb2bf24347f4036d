// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.InvalidFieldException;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.config.basics.SubjectFactories;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Registers the app's netcfg classes and reads them.
 */
@Component(immediate = true, service = Srv6IntConfigService.class)
public class Srv6IntConfigManager implements Srv6IntConfigService {

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry registry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    /** Creates the component for OSGi, which sets its references. */
    public Srv6IntConfigManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi; call {@link #activate()}.
     *
     * @param registry    ONOS netcfg registry (the app's config classes are registered there)
     * @param coreService application ids
     */
    public Srv6IntConfigManager(NetworkConfigRegistry registry, CoreService coreService) {
        this.registry = registry;
        this.coreService = coreService;
    }

    private ApplicationId appId;

    final ConfigFactory<ApplicationId, Srv6IntAppConfig> appFactory =
            new ConfigFactory<>(SubjectFactories.APP_SUBJECT_FACTORY, Srv6IntAppConfig.class,
                                Srv6IntAppConfig.KEY) {
                @Override
                public Srv6IntAppConfig createConfig() {
                    return new Srv6IntAppConfig();
                }
            };

    final ConfigFactory<DeviceId, Srv6DeviceConfig> deviceFactory =
            new ConfigFactory<>(SubjectFactories.DEVICE_SUBJECT_FACTORY, Srv6DeviceConfig.class,
                                Srv6IntAppConfig.KEY) {
                @Override
                public Srv6DeviceConfig createConfig() {
                    return new Srv6DeviceConfig();
                }
            };

    /** Registers the config factories. */
    @Activate
    public void activate() {
        appId = coreService.registerApplication(APP_NAME);
        registry.registerConfigFactory(appFactory);
        registry.registerConfigFactory(deviceFactory);
        log.info("Started");
    }

    /** Unregisters the config factories. */
    @Deactivate
    public void deactivate() {
        registry.unregisterConfigFactory(appFactory);
        registry.unregisterConfigFactory(deviceFactory);
        log.info("Stopped");
    }

    @Override
    public Srv6Devices devices() {
        Map<DeviceId, Srv6DeviceConfig> map = new HashMap<>();
        for (DeviceId d : registry.getSubjects(DeviceId.class, Srv6DeviceConfig.class)) {
            Srv6DeviceConfig c = registry.getConfig(d, Srv6DeviceConfig.class);
            if (c == null) {
                continue;
            }
            try {
                c.validate();
                map.put(d, c);
            } catch (InvalidFieldException e) {
                log.warn("Ignoring invalid SRv6 config of {}: {}", d, e.getMessage());
            }
        }
        return new Srv6Devices(map);
    }

    @Override
    public Optional<Srv6IntAppConfig> appConfig() {
        Srv6IntAppConfig c = registry.getConfig(appId, Srv6IntAppConfig.class);
        if (c == null) {
            return Optional.empty();
        }
        try {
            c.validate();
            return Optional.of(c);
        } catch (InvalidFieldException e) {
            log.warn("Ignoring invalid app config: {}", e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Returns the config factories (for tests).
     *
     * @return factories
     */
    List<ConfigFactory<?, ?>> factories() {
        return List.of(appFactory, deviceFactory);
    }
}
