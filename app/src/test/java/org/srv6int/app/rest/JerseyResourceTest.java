// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.test.jetty.JettyTestContainerFactory;
import org.glassfish.jersey.test.spi.TestContainerFactory;
import org.onlab.junit.TestUtils;
import org.onlab.osgi.ServiceDirectory;
import org.onlab.rest.AuthorizationFilter;
import org.onlab.rest.BaseResource;

/**
 * JerseyTest on Jetty set up like ONOS's own ResourceTest (onos-rest tests):
 * a free port, authorization off, services from a test directory. ResourceTest
 * itself cannot be used outside ONOS's tree because it needs AuditFilter,
 * which onos-rest ships inside WEB-INF/classes (it is a web bundle).
 */
public abstract class JerseyResourceTest extends JerseyTest {

    protected JerseyResourceTest(ResourceConfig config) {
        super(config);
        set(TestProperties.CONTAINER_PORT, 0);
        AuthorizationFilter.disableForTests();
    }

    @Override
    protected TestContainerFactory getTestContainerFactory() {
        return new JettyTestContainerFactory();
    }

    /**
     * Sets the services resources get. ONOS 2.7's {@code BaseResource} reads them from a private
     * static field with no setter (in OSGi a directory over the OSGi registry); ONOS's own
     * {@code ResourceTest} (web/api) sets it the same way, so this one reflective write stays, the
     * only one in the tests.
     *
     * @param directory services
     */
    protected void setServiceDirectory(ServiceDirectory directory) {
        TestUtils.setField(BaseResource.class, "services", directory);
    }
}
