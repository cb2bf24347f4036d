package org.srv6int.twin.control;

import java.util.List;
import org.srv6int.twin.model.Resource;

/**
 * What a node-local controller can see and change on its worker: the vNF pods on the NIC's
 * NUMA node, their four resource values, and what the pools have free. This is the actuator
 * boundary (cgroup cpu.max, resctrl schemata, cpufreq scaling_max_freq on a real node).
 */
public interface NodeResources {
    /** Pod ids on this node. */
    List<String> vnfs();

    /** Current value of a resource of a pod. */
    double get(String vnf, Resource r);

    /** Writes a resource of a pod; false if the node refused (limit or pool exhausted). */
    boolean set(String vnf, Resource r, double value);

    /** Amount of a resource free on the node. */
    double free(Resource r);
}
