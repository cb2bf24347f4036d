// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.placement.InterferenceMatrix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A scoring step in front of the app's placement (vnf-interference.txt, "Location Selection"):
 * of the candidate nodes, only those whose residents interfere least with the new replica (by
 * the {@link InterferenceMatrix}) go on to the placement, which picks among them as before; if
 * none of those fits, the placement sees every candidate. Everything else is the inner routing's.
 */
public final class InterferenceAwareRouting extends ForwardingChainRouting {

    /** Scores this close count as equal (the placement's own preference decides). */
    static final double TIE = 1e-6;

    private final InterferenceMatrix matrix;
    private final NodeResidents residents;
    private volatile String note = "";

    /**
     * Creates the step.
     *
     * @param inner     the placement and routing it narrows the candidates for
     * @param matrix    interference between classes
     * @param residents classes on each node
     */
    public InterferenceAwareRouting(ChainRouting inner, InterferenceMatrix matrix, NodeResidents residents) {
        super(inner);
        this.matrix = Objects.requireNonNull(matrix, "matrix is null");
        this.residents = Objects.requireNonNull(residents, "residents are null");
    }

    @Override
    public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
        Optional<VnfClass> cls = residents.classOf(vnf);
        if (cls.isEmpty()) {
            note = "; interference-aware: type of " + vnf + " has no class, placement as usual";
            return inner().placeReplicas(vnf, candidates, count);
        }
        Map<String, List<VnfClass>> on = new HashMap<>();
        residents.classesByNode().forEach((n, cs) -> on.put(n, new ArrayList<>(cs)));
        List<String> out = new ArrayList<>();
        StringBuilder why = new StringBuilder("; interference-aware (" + cls.get().roman() + "):");
        for (int i = 0; i < count; i++) {
            Map<String, Double> loss = new TreeMap<>();
            double best = Double.MAX_VALUE;
            for (NodeResources n : candidates) {
                double l = matrix.placementLoss(cls.get(), on.getOrDefault(n.node(), List.of()));
                loss.put(n.node(), l);
                best = Math.min(best, l);
            }
            List<NodeResources> least = new ArrayList<>();
            for (NodeResources n : candidates) {
                if (loss.get(n.node()) <= best + TIE) {
                    least.add(n);
                }
            }
            String pick;
            try {
                pick = inner().placeReplicas(vnf, least, 1).get(0);
            } catch (IllegalStateException e) {
                pick = inner().placeReplicas(vnf, candidates, 1).get(0);
            }
            on.computeIfAbsent(pick, k -> new ArrayList<>()).add(cls.get());
            out.add(pick);
            why.append(' ').append(pick).append(" (loss ");
            loss.forEach((n, l) -> why.append(String.format(Locale.ROOT, "%s=%.2f ", n, l)));
            why.setLength(why.length() - 1);
            why.append(')');
        }
        note = why.toString();
        return out;
    }

    @Override
    public String placementNote() {
        return note;
    }
}
