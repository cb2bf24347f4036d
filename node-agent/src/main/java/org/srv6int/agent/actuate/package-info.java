// SPDX-License-Identifier: Apache-2.0
/**
 * Actuators on a real Linux host: cgroup v2 cpu.max and cpuset, resctrl L3
 * and MB schemata, cpufreq scaling_max_freq; every path under a configurable
 * root so tests run against a fake tree.
 */
package org.srv6int.agent.actuate;
