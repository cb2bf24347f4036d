// SPDX-License-Identifier: Apache-2.0
/**
 * In-memory stand-ins for the ONOS 2.7 core services the SRv6-INT app uses, for a bare
 * Karaf and for tests: each keeps the state the real service keeps and announces changes
 * to its listeners the way the real one does, in one JVM and without ONOS's core, Atomix or
 * any device. Every class is a Declarative Services component (registered when this bundle
 * starts in Karaf) and a plain class with a public constructor (for tests). Not shipped in
 * the app's .oar.
 */
package org.srv6int.testkit;
