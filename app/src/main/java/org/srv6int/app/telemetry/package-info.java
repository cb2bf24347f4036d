// SPDX-License-Identifier: Apache-2.0
/**
 * INT collector and telemetry windows: the UDP listener for INT reports, per-reporter sequence
 * tracking, and per-chain / per-vNF / per-hop telemetry in fixed windows.
 *
 * <p>{@link org.srv6int.app.telemetry.TelemetryEngine} is plain Java and allocation-free per
 * report; {@link org.srv6int.app.telemetry.UdpCollector} feeds it from a socket; the ONOS
 * component wires both to netcfg, the app's chain inventory, metrics, REST and CLI.
 */
package org.srv6int.app.telemetry;
