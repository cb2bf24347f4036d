// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.Test;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.service.PiPipeconfService;

public class Srv6IntPipeconfLoaderTest {

    @Test
    public void pipeconfCarriesTheModelBehavioursAndArtefacts() {
        PiPipeconf pipeconf = Srv6IntPipeconfLoader.buildPipeconf();
        assertEquals(Srv6IntPipelineConstants.PIPECONF_ID, pipeconf.id());
        PiPipelineModel model = pipeconf.pipelineModel();
        assertTrue(model.table(Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID).isPresent());
        // the bucket table: a direct table keyed by chain and bucket (no action selector)
        assertTrue(model.table(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP).get().actionProfile() == null);
        assertEquals(Srv6IntConstants.HDR_BUCKET_BITWIDTH,
                model.table(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)
                .get().matchField(Srv6IntConstants.HDR_BUCKET).get().bitWidth());
        assertEquals(9, model.table(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL).get()
                .matchField(Srv6IntConstants.HDR_IG_PORT).get().bitWidth());
        assertTrue(pipeconf.hasBehaviour(PiPipelineInterpreter.class));
        assertTrue(pipeconf.hasBehaviour(Pipeliner.class));
        assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.BMV2_JSON).isPresent());
        assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.P4_INFO_TEXT).isPresent());
    }

    /** A PiPipeconfService that records calls, as ONOS' would store the pipeconf. */
    @Test
    public void activateRegistersAndDeactivateUnregisters() {
        List<String> calls = new ArrayList<>();
        List<PiPipeconf> registered = new ArrayList<>();
        PiPipeconfService service = (PiPipeconfService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{PiPipeconfService.class}, (p, m, args) -> {
                    calls.add(m.getName());
                    switch (m.getName()) {
                        case "register":
                            registered.add((PiPipeconf) args[0]);
                            return null;
                        case "unregister":
                            registered.removeIf(pc -> pc.id().equals(args[0]));
                            return null;
                        case "getPipeconf":
                            return registered.stream().filter(pc -> pc.id().equals(args[0])).findFirst();
                        default:
                            return Optional.empty();
                    }
                });
        Srv6IntPipeconfLoader loader = new Srv6IntPipeconfLoader();
        loader.pipeconfService = service;
        loader.activate();
        assertEquals(1, registered.size());
        assertEquals(Srv6IntPipelineConstants.PIPECONF_ID, registered.get(0).id());
        loader.activate();                      // re-activation replaces, never duplicates
        assertEquals(1, registered.size());
        loader.deactivate();
        assertTrue(registered.isEmpty());
        assertTrue(calls.contains("unregister"));
    }
}
