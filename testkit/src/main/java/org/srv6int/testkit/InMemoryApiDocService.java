// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.rest.ApiDocProvider;
import org.onosproject.rest.ApiDocService;
import org.osgi.service.component.annotations.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * REST API documentation registry (ONOS's web/api ApiDocManager, which serves the swagger
 * documents of every app's REST API at /onos/v1/docs): providers by key, stored as given.
 * {@link #docsSize} reads a provider's swagger document as that page would.
 */
@Component(immediate = true, service = ApiDocService.class)
public class InMemoryApiDocService implements ApiDocService {

    private final Map<String, ApiDocProvider> providers = new LinkedHashMap<>();

    @Override
    public synchronized void register(ApiDocProvider provider) {
        providers.put(provider.key(), provider);
    }

    /**
     * Reads a provider's swagger document.
     *
     * @param provider a provider
     * @return its size in bytes, -1 if it has none
     */
    public static int docsSize(ApiDocProvider provider) {
        try (InputStream docs = provider.docs()) {
            return docs == null ? -1 : docs.readAllBytes().length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void unregister(ApiDocProvider provider) {
        providers.remove(provider.key());
    }

    @Override
    public synchronized Set<ApiDocProvider> getDocProviders() {
        return new LinkedHashSet<>(providers.values());
    }

    @Override
    public synchronized ApiDocProvider getDocProvider(String key) {
        return providers.get(key);
    }
}
