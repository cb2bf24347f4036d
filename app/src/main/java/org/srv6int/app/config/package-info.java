// SPDX-License-Identifier: Apache-2.0
/**
 * Network configuration (netcfg) of the SRv6-INT SFC app: app-wide settings
 * (INT collector, loop parameters, resource steps) under the application
 * subject and per-switch SRv6 settings under the device subject, both under
 * the key {@value org.srv6int.app.config.Srv6IntAppConfig#KEY}.
 * Every part of the app reads its settings through these objects.
 */
package org.srv6int.app.config;
