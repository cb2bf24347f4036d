// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

/**
 * Names and defaults of the component properties of this package.
 */
public final class OsgiPropertyConstants {

    private OsgiPropertyConstants() {
    }

    /** Seconds between safety reconcile passes. */
    public static final String RECONCILE_PERIOD = "reconcilePeriodSeconds";
    /** Default of {@link #RECONCILE_PERIOD}. */
    public static final int RECONCILE_PERIOD_DEFAULT = 10;
}
