// SPDX-License-Identifier: Apache-2.0
/**
 * The simulated workers' kernel files: per run and worker a directory tree with the cgroup v2,
 * resctrl and cpufreq files a real worker has, in the layout the node agent's actuators use.
 * The vNF model reads every allocation back from these files, so a controller changes a vNF
 * only by writing them.
 */
package org.srv6int.twin.host;
