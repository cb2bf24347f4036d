// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.BMV2_JSON;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.P4_INFO_TEXT;

import java.net.URL;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.pi.model.DefaultPiPipeconf;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the SRv6-INT BMv2 pipeconf ({@code org.srv6int.bmv2}) with ONOS.
 */
@Component(immediate = true)
public final class Srv6IntPipeconfLoader {

    static final String P4INFO_PATH = "/p4c-out/bmv2/p4info.txt";
    static final String BMV2_JSON_PATH = "/p4c-out/bmv2/bmv2.json";

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    PiPipeconfService pipeconfService;

    @Activate
    protected void activate() {
        if (pipeconfService.getPipeconf(Srv6IntPipelineConstants.PIPECONF_ID).isPresent()) {
            // Left registered by a previous run of this bundle.
            pipeconfService.unregister(Srv6IntPipelineConstants.PIPECONF_ID);
        }
        pipeconfService.register(buildPipeconf());
        log.info("Registered pipeconf {}", Srv6IntPipelineConstants.PIPECONF_ID);
    }

    @Deactivate
    protected void deactivate() {
        if (pipeconfService.getPipeconf(Srv6IntPipelineConstants.PIPECONF_ID).isPresent()) {
            pipeconfService.unregister(Srv6IntPipelineConstants.PIPECONF_ID);
        }
        log.info("Unregistered pipeconf {}", Srv6IntPipelineConstants.PIPECONF_ID);
    }

    /**
     * Builds the pipeconf from the compiled artefacts on the class path.
     *
     * @return the pipeconf
     * @throws IllegalStateException if an artefact is missing or the p4info does not parse
     */
    static PiPipeconf buildPipeconf() {
        URL p4info = resource(P4INFO_PATH);
        URL bmv2Json = resource(BMV2_JSON_PATH);
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IllegalStateException("cannot parse " + P4INFO_PATH, e);
        }
        return DefaultPiPipeconf.builder()
                .withId(Srv6IntPipelineConstants.PIPECONF_ID)
                .withPipelineModel(model)
                .addBehaviour(PiPipelineInterpreter.class, Srv6IntInterpreter.class)
                .addBehaviour(Pipeliner.class, Srv6IntPipeliner.class)
                .addExtension(P4_INFO_TEXT, p4info)
                .addExtension(BMV2_JSON, bmv2Json)
                .build();
    }

    private static URL resource(String path) {
        URL url = Srv6IntPipeconfLoader.class.getResource(path);
        if (url == null) {
            throw new IllegalStateException(path + " is not in the bundle: run tools/p4-build");
        }
        return url;
    }
}
