// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

/**
 * The cgroup hierarchy the agent writes: v1 (one mount per controller, e.g.
 * {@code /sys/fs/cgroup/cpu} and {@code /sys/fs/cgroup/cpuset}) or v2 (one
 * unified mount, {@code /sys/fs/cgroup}). Chosen once at start
 * ({@link CgroupHierarchy#detect}).
 */
public enum CgroupVersion {
    /** Legacy hierarchies, one per controller. */
    V1,
    /** The unified hierarchy. */
    V2
}
