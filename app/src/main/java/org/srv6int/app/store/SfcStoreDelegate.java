// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.StoreDelegate;
import org.srv6int.app.api.SfcEvent;

/**
 * Receives chain events from the {@link SfcStore}.
 */
public interface SfcStoreDelegate extends StoreDelegate<SfcEvent> {
}
