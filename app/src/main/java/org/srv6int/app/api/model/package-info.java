// SPDX-License-Identifier: Apache-2.0
/**
 * Immutable value types of the app's model, in the paper's terms: chains and their vNFs,
 * segment lists, replicas, INT telemetry windows, Detection Results, loop decisions and states.
 */
package org.srv6int.app.api.model;
