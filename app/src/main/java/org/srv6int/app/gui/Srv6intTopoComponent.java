// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import com.google.common.collect.ImmutableList;
import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiMessageHandlerFactory;
import org.onosproject.ui.UiTopoOverlayFactory;
import org.onosproject.ui.UiView;
import org.onosproject.ui.UiViewHidden;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;

import java.util.List;

/**
 * Registers the SRv6-INT topology overlay with ONOS's web GUI: a hidden view
 * whose resources (app/view/srv6intTopo/, srv6intTopo/css.html and js.html)
 * carry the overlay's client side, the overlay, and its message handler.
 * Telemetry and the global loop are optional: without them the overlay still
 * draws chains and replicas.
 */
@Component(immediate = true)
public class Srv6intTopoComponent {
    /** Hidden view id and resource path; must match the resource folders. */
    public static final String VIEW_ID = "srv6intTopo";
    /** Live refresh period of the overlay's highlights and panel. */
    static final long REFRESH_MS = 2000;

    private static final ClassLoader CL = Srv6intTopoComponent.class.getClassLoader();

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected UiExtensionService uiExtensionService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService vnfInventoryService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcPathService sfcPathService;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile TelemetryService telemetryService;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile GlobalLoopService globalLoopService;

    private final List<UiView> uiViews = ImmutableList.of(new UiViewHidden(VIEW_ID));

    private final ChainViews chains = new ChainViews(() -> sfcService, () -> vnfInventoryService,
            () -> sfcPathService, () -> telemetryService, () -> globalLoopService);

    private final UiMessageHandlerFactory messageHandlerFactory =
            () -> ImmutableList.of(new Srv6intTopoMessageHandler(chains, REFRESH_MS));

    private final UiTopoOverlayFactory topoOverlayFactory =
            () -> ImmutableList.of(new Srv6intTopoOverlay(chains));

    /** The extension registered with the GUI. */
    protected final UiExtension extension = new UiExtension.Builder(CL, uiViews)
            .resourcePath(VIEW_ID)
            .messageHandlerFactory(messageHandlerFactory)
            .topoOverlayFactory(topoOverlayFactory)
            .build();

    /** Creates the component for OSGi, which sets its references. */
    public Srv6intTopoComponent() {
    }

    /**
     * Creates the component with its mandatory references, for a host without OSGi (telemetry and
     * the global loop left unbound, as the optional references allow); call {@link #activate()}.
     *
     * @param uiExtensionService the GUI's extension registry
     * @param sfcService         chains
     * @param vnfInventoryService replicas
     * @param sfcPathService     the chains' paths
     */
    public Srv6intTopoComponent(UiExtensionService uiExtensionService, SfcService sfcService,
                                VnfInventoryService vnfInventoryService, SfcPathService sfcPathService) {
        this.uiExtensionService = uiExtensionService;
        this.sfcService = sfcService;
        this.vnfInventoryService = vnfInventoryService;
        this.sfcPathService = sfcPathService;
    }

    @Activate
    protected void activate() {
        uiExtensionService.register(extension);
        log.info("Started SRv6-INT topology overlay");
    }

    @Deactivate
    protected void deactivate() {
        uiExtensionService.unregister(extension);
        log.info("Stopped SRv6-INT topology overlay");
    }
}
