// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.StoreDelegate;
import org.srv6int.app.api.VnfReplicaEvent;

/**
 * Receives replica events from the {@link VnfReplicaStore}.
 */
public interface VnfReplicaStoreDelegate extends StoreDelegate<VnfReplicaEvent> {
}
