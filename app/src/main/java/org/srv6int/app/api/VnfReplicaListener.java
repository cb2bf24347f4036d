// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.onosproject.event.EventListener;

/**
 * Listener of vNF replica events.
 */
public interface VnfReplicaListener extends EventListener<VnfReplicaEvent> {
}
