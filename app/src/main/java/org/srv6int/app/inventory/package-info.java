// SPDX-License-Identifier: Apache-2.0
/** The vNF replica inventory service over the replica store: reservations, states and events. */
package org.srv6int.app.inventory;
