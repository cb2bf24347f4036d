// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.net.DeviceId;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfEvent;
import org.onosproject.net.pi.service.PiPipeconfListener;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Pipeconf registry as ONOS's PiPipeconfManager keeps it: one pipeconf per id (registering an
 * id twice fails, unregistering an unknown one fails), device bindings, REGISTERED and
 * UNREGISTERED events. No driver is merged (there are no drivers here).
 */
@Component(immediate = true, service = PiPipeconfService.class)
public class InMemoryPiPipeconfService implements PiPipeconfService {

    private final Map<PiPipeconfId, PiPipeconf> pipeconfs = new LinkedHashMap<>();
    private final Map<DeviceId, PiPipeconfId> bindings = new LinkedHashMap<>();
    private final Listeners<PiPipeconfEvent, PiPipeconfListener> listeners = new Listeners<>();

    @Override
    public void register(PiPipeconf pipeconf) {
        synchronized (this) {
            if (pipeconfs.containsKey(pipeconf.id())) {
                throw new IllegalStateException("Pipeconf " + pipeconf.id() + " is already registered");
            }
            pipeconfs.put(pipeconf.id(), pipeconf);
        }
        listeners.post(new PiPipeconfEvent(PiPipeconfEvent.Type.REGISTERED, pipeconf));
    }

    @Override
    public void unregister(PiPipeconfId pipeconfId) {
        synchronized (this) {
            if (pipeconfs.remove(pipeconfId) == null) {
                throw new IllegalStateException("Pipeconf " + pipeconfId + " is not registered");
            }
        }
        listeners.post(new PiPipeconfEvent(PiPipeconfEvent.Type.UNREGISTERED, pipeconfId));
    }

    @Override
    public synchronized Iterable<PiPipeconf> getPipeconfs() {
        return new ArrayList<>(pipeconfs.values());
    }

    @Override
    public synchronized Optional<PiPipeconf> getPipeconf(PiPipeconfId id) {
        return Optional.ofNullable(pipeconfs.get(id));
    }

    @Override
    public synchronized Optional<PiPipeconf> getPipeconf(DeviceId deviceId) {
        PiPipeconfId id = bindings.get(deviceId);
        return id == null ? Optional.empty() : getPipeconf(id);
    }

    @Override
    public synchronized void bindToDevice(PiPipeconfId pipeconfId, DeviceId deviceId) {
        bindings.put(deviceId, pipeconfId);
    }

    @Override
    public String getMergedDriver(DeviceId deviceId, PiPipeconfId pipeconfId) {
        return null;
    }

    @Override
    public synchronized Optional<PiPipeconfId> ofDevice(DeviceId deviceId) {
        return Optional.ofNullable(bindings.get(deviceId));
    }

    @Override
    public void addListener(PiPipeconfListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(PiPipeconfListener listener) {
        listeners.remove(listener);
    }
}
