// SPDX-License-Identifier: Apache-2.0
/**
 * Northbound REST API of the SRv6-INT SFC app, under the web context
 * /onos/srv6int: chains, vNF replicas, segment lists, INT telemetry and the
 * global loop; JSON codecs of the api types.
 */
package org.srv6int.app.rest;
