// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

/**
 * Life cycle of a vNF replica as the flow programming sees it.
 */
public enum ReplicaState {
    /** Known (e.g. the pod is being created) but not yet given traffic. */
    PENDING,
    /** Carries traffic: its segment lists are in the chain's multipath group. */
    ACTIVE,
    /** Being taken out: no new traffic (weight 0), its entries are still installed. */
    DRAINING
}
