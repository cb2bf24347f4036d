// SPDX-License-Identifier: Apache-2.0
/**
 * Karaf shell commands of the testkit ({@code testkit:*}): what an operator of a real ONOS
 * would do through ONOS's core (push netcfg, move masters) and what the Karaf step checks
 * (component states, GUI extensions).
 */
package org.srv6int.testkit.cli;
