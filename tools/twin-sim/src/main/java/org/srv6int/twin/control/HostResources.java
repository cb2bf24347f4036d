package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.List;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/** {@link NodeResources} straight on a simulated host (no files in between). */
public final class HostResources implements NodeResources {
    private final Host host;

    /** Wraps a host. */
    public HostResources(Host host) {
        this.host = host;
    }

    @Override
    public List<String> vnfs() {
        List<String> ids = new ArrayList<>();
        for (VnfInstance i : host.instances()) {
            ids.add(i.id());
        }
        return ids;
    }

    @Override
    public double get(String vnf, Resource r) {
        return host.instance(vnf).allocation().get(r);
    }

    @Override
    public boolean set(String vnf, Resource r, double value) {
        return host.set(vnf, r, value);
    }

    @Override
    public double free(Resource r) {
        return host.free(r);
    }
}
