// SPDX-License-Identifier: Apache-2.0
/**
 * The twin's switches as BMv2 {@code simple_switch_grpc} processes in a network namespace,
 * programmed over P4Runtime with the app's PI rules ({@code --dataplane bmv2}, docs/twin.md).
 * {@link org.srv6int.twin.bmv2.P4InfoIndex} is the one PI-name to P4Info lookup of the twin.
 */
package org.srv6int.twin.bmv2;
