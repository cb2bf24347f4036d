// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.onosproject.event.EventListener;

/**
 * Listener of chain events.
 */
public interface SfcListener extends EventListener<SfcEvent> {
}
