// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import java.util.Optional;

/**
 * Current netcfg of the app, read through the config objects of this
 * package. Register a NetworkConfigListener to hear about changes.
 */
public interface Srv6IntConfigService {

    /** Application name, also the netcfg subject of {@link Srv6IntAppConfig}. */
    String APP_NAME = "org.srv6int.app";

    /**
     * Returns every switch's SRv6 config that is valid (invalid ones are
     * rejected by netcfg already; any left over are skipped and logged).
     *
     * @return snapshot
     */
    Srv6Devices devices();

    /**
     * Returns the app-wide config.
     *
     * @return config, empty if none is set (use the defaults in
     *         {@link Srv6IntAppConfig})
     */
    Optional<Srv6IntAppConfig> appConfig();
}
