package org.srv6int.app.config;

import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.srv6int.app.export.ExportConfig;
import org.srv6int.app.metrics.MetricsConfig;
import org.srv6int.app.testing.PaperTestbed;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

/**
 * {@link AppConfigSection}: registers its class under the app's key, calls back on changes of its
 * own section only, reads the section for the app's id, and leaves nothing registered when closed.
 */
public class AppConfigSectionTest {

    private final List<ConfigFactory<?, ?>> factories = new ArrayList<>();
    private final List<NetworkConfigListener> listeners = new ArrayList<>();
    private final ExportConfig held = new ExportConfig();
    private final List<Object> readSubjects = new ArrayList<>();

    private final NetworkConfigRegistryAdapter registry = new NetworkConfigRegistryAdapter() {
        @Override
        public void registerConfigFactory(ConfigFactory configFactory) {
            factories.add(configFactory);
        }

        @Override
        public void unregisterConfigFactory(ConfigFactory configFactory) {
            factories.remove(configFactory);
        }

        @Override
        public void addListener(NetworkConfigListener l) {
            listeners.add(l);
        }

        @Override
        public void removeListener(NetworkConfigListener l) {
            listeners.remove(l);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
            readSubjects.add(subject);
            return configClass == ExportConfig.class ? (C) held : null;
        }
    };

    private void announce(Class<? extends Config> type) {
        NetworkConfigEvent e = new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, "org.srv6int.app",
                                                      type);
        List.copyOf(listeners).stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
    }

    @Test
    public void followsItsOwnSectionOnlyAndUnregistersOnClose() {
        AtomicInteger changes = new AtomicInteger();
        ApplicationId app = PaperTestbed.APP_ID;
        AppConfigSection<ExportConfig> section = new AppConfigSection<>(registry, app, ExportConfig.class,
                                                                        ExportConfig.KEY, ExportConfig::new,
                                                                        changes::incrementAndGet);
        section.open();
        assertEquals(1, factories.size());
        ConfigFactory<?, ?> f = factories.get(0);
        assertEquals(ExportConfig.KEY, f.configKey());
        assertSame(ExportConfig.class, f.configClass());
        assertTrue("the factory makes a fresh config", f.createConfig() instanceof ExportConfig);

        announce(MetricsConfig.class);
        assertEquals("another section's change is not ours", 0, changes.get());
        announce(ExportConfig.class);
        assertEquals(1, changes.get());

        assertSame(held, section.get());
        assertEquals(List.of(app), readSubjects);

        section.close();
        assertTrue(factories.isEmpty());
        assertTrue(listeners.isEmpty());
        announce(ExportConfig.class);
        assertEquals("closed: no more calls", 1, changes.get());
    }
}
