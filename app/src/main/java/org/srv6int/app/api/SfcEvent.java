// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.Sfc;
import org.onosproject.event.AbstractEvent;

/**
 * A chain was added, updated or removed. For removal the subject is the last
 * known chain.
 */
public final class SfcEvent extends AbstractEvent<SfcEvent.Type, Sfc> {

    /** Event types. */
    public enum Type {
        /** A chain was added. */
        SFC_ADDED,
        /** A chain was replaced by a new version. */
        SFC_UPDATED,
        /** A chain was removed. */
        SFC_REMOVED
    }

    /**
     * Creates an event.
     *
     * @param type    type
     * @param subject chain
     */
    public SfcEvent(Type type, Sfc subject) {
        super(type, subject);
    }
}
