// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.InvalidConfigException;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.basics.SubjectFactories;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

/**
 * The netcfg registry behaves like ONOS's: JSON kept until its factory registers, invalid
 * configs refused with nothing stored, ADDED/UPDATED/REMOVED events with the previous config.
 */
public class InMemoryNetworkConfigRegistryTest {

    /** A config valid when "n" is a positive number. */
    abstract static class PositiveOf<S> extends Config<S> {
        @Override
        public boolean isValid() {
            return object.path("n").asInt(0) > 0;
        }

        int n() {
            return object.path("n").asInt();
        }
    }

    /** Of a device. */
    public static final class Positive extends PositiveOf<DeviceId> {
    }

    /** Of an application. */
    public static final class AppPositive extends PositiveOf<ApplicationId> {
    }

    private final ConfigFactory<DeviceId, Positive> factory =
            new ConfigFactory<>(SubjectFactories.DEVICE_SUBJECT_FACTORY, Positive.class, "positive") {
                @Override
                public Positive createConfig() {
                    return new Positive();
                }
            };

    private final InMemoryCoreService core = new InMemoryCoreService();
    private final InMemoryNetworkConfigRegistry registry = new InMemoryNetworkConfigRegistry().withCoreService(core);
    private final List<NetworkConfigEvent> events = new ArrayList<>();
    private final DeviceId sw1 = DeviceId.deviceId("of:0000000000000001");

    private static ObjectNode n(int n) {
        return new ObjectMapper().createObjectNode().put("n", n);
    }

    @Test
    public void jsonBeforeItsFactoryBecomesAConfigOnRegistration() {
        registry.addListener(events::add);
        assertNull(registry.applyConfig("devices", sw1, "positive", n(3)));
        assertNull(registry.getConfig(sw1, Positive.class));
        registry.registerConfigFactory(factory);
        assertEquals(3, registry.getConfig(sw1, Positive.class).n());
        assertEquals(NetworkConfigEvent.Type.CONFIG_REGISTERED, events.get(0).type());
        assertEquals(NetworkConfigEvent.Type.CONFIG_ADDED, events.get(1).type());
    }

    private final ConfigFactory<ApplicationId, AppPositive> appFactory =
            new ConfigFactory<>(SubjectFactories.APP_SUBJECT_FACTORY, AppPositive.class, "positive") {
                @Override
                public AppPositive createConfig() {
                    return new AppPositive();
                }
            };

    @Test
    public void anApplicationSubjectAppliedBeforeItsFactoryStaysThatApplication() {
        ApplicationId app = core.registerApplication("org.srv6int.sfc");
        assertNull(registry.applyConfig("apps", app, "positive", n(4)));
        registry.registerConfigFactory(appFactory);
        assertEquals(4, registry.getConfig(app, AppPositive.class).n());
    }

    @Test
    public void aRestSubjectKeyAppliedBeforeItsFactoryBecomesItsSubject() {
        ApplicationId app = core.registerApplication("org.srv6int.sfc");
        assertNull(registry.applyConfig("apps", "org.srv6int.sfc", "positive", n(5)));
        registry.registerConfigFactory(appFactory);
        assertEquals(5, registry.getConfig(app, AppPositive.class).n());
    }

    @Test
    public void invalidConfigIsRefusedAndNothingStored() {
        registry.registerConfigFactory(factory);
        registry.applyConfig(sw1, Positive.class, n(2));
        try {
            registry.applyConfig(sw1, Positive.class, n(-1));
            fail("invalid config accepted");
        } catch (InvalidConfigException e) {
            assertEquals(2, registry.getConfig(sw1, Positive.class).n());
        }
    }

    @Test
    public void updateCarriesThePreviousConfigAndRemoveAnnounces() {
        registry.registerConfigFactory(factory);
        registry.addListener(events::add);
        registry.applyConfig(sw1, Positive.class, n(1));
        registry.applyConfig(sw1, Positive.class, n(5));
        registry.removeConfig(sw1, Positive.class);
        assertEquals(NetworkConfigEvent.Type.CONFIG_ADDED, events.get(0).type());
        assertEquals(NetworkConfigEvent.Type.CONFIG_UPDATED, events.get(1).type());
        assertEquals(1, ((Positive) events.get(1).prevConfig().get()).n());
        assertEquals(5, ((Positive) events.get(1).config().get()).n());
        assertEquals(NetworkConfigEvent.Type.CONFIG_REMOVED, events.get(2).type());
        assertNull(registry.getConfig(sw1, Positive.class));
    }
}
