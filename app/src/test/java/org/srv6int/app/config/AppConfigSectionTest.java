// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.srv6int.app.export.ExportConfig;
import org.srv6int.app.metrics.MetricsConfig;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

/**
 * {@link AppConfigSection} on the testkit's netcfg registry: its class is registered under the
 * app's key (a section posted before that waits for it, as in ONOS), it is called back on changes
 * of its own section only, reads the section for the app's id, and once closed is neither
 * registered nor called.
 */
public class AppConfigSectionTest {

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    public void followsItsOwnSectionOnlyAndUnregistersOnClose() throws Exception {
        InMemoryCoreService core = new InMemoryCoreService();
        InMemoryNetworkConfigRegistry registry = new InMemoryNetworkConfigRegistry().withCoreService(core);
        ApplicationId app = core.registerApplication(Srv6IntConfigService.APP_NAME);
        AtomicInteger changes = new AtomicInteger();
        AppConfigSection<ExportConfig> section = new AppConfigSection<>(registry, app, ExportConfig.class,
                                                                        ExportConfig.KEY, ExportConfig::new,
                                                                        changes::incrementAndGet);
        // as the netcfg REST API posts it: the subject by its key
        registry.applyConfig("apps", Srv6IntConfigService.APP_NAME, ExportConfig.KEY,
                             mapper.readTree("{\"otlp\": {\"endpoint\": \"http://h:4318/v1/metrics\"}}"));
        assertNull("no class registered yet", section.get());

        section.open();
        assertNotNull(registry.getConfigFactory(ExportConfig.class));
        ExportConfig early = section.get();
        assertNotNull("the section posted before open() is read", early);
        assertEquals("http://h:4318/v1/metrics", early.settings().otlp().endpoint());
        int afterOpen = changes.get();

        registry.applyConfig("apps", app, MetricsConfig.KEY, mapper.readTree("{}"));
        assertEquals("another section's change is not ours", afterOpen, changes.get());
        registry.applyConfig("apps", app, ExportConfig.KEY,
                             mapper.readTree("{\"otlp\": {\"endpoint\": \"http://h2:4318/v1/metrics\"}}"));
        assertEquals(afterOpen + 1, changes.get());
        assertEquals("http://h2:4318/v1/metrics", section.get().settings().otlp().endpoint());
        registry.removeConfig(app, ExportConfig.class);
        assertEquals(afterOpen + 2, changes.get());
        assertNull(section.get());

        section.close();
        assertNull(registry.getConfigFactory(ExportConfig.class));
        registry.applyConfig("apps", app, ExportConfig.KEY, mapper.readTree("{}"));
        assertEquals("closed: no more calls", afterOpen + 2, changes.get());
    }
}
