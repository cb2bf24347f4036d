package org.srv6int.app.testing;

import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;

import java.util.Optional;

/**
 * Config service holding a settable snapshot (what netcfg would hold).
 */
public class FakeConfigService implements Srv6IntConfigService {

    /** Device configs. */
    public Srv6Devices devices;
    /** App config or null. */
    public Srv6IntAppConfig app;

    /**
     * Creates the service.
     *
     * @param devices device configs
     * @param app     app config or null
     */
    public FakeConfigService(Srv6Devices devices, Srv6IntAppConfig app) {
        this.devices = devices;
        this.app = app;
    }

    @Override
    public Srv6Devices devices() {
        return devices;
    }

    @Override
    public Optional<Srv6IntAppConfig> appConfig() {
        return Optional.ofNullable(app);
    }
}
