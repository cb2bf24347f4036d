/**
 * Cluster-wide state of the app in ONOS distributed stores (ConsistentMap):
 * chains and the vNF replica inventory. Every instance sees the same maps and
 * gets the same events through its store delegate.
 */
package org.srv6int.app.store;
