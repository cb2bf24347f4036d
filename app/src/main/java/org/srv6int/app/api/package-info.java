/**
 * Stable northbound model and service interfaces of the SRv6-INT SFC app:
 * service function chains, the vNF replica inventory, computed segment lists,
 * INT telemetry and the global closed loop (Algorithm 4).
 *
 * <p>Everything here is immutable value types plus small ONOS-style service
 * interfaces; REST, CLI, GUI, the INT collector and the global loop are all
 * written against this package only.
 */
package org.srv6int.app.api;
