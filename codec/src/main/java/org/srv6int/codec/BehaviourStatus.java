// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

/**
 * Outcome of an endpoint behaviour applied by {@link EndpointBehaviours}.
 */
public enum BehaviourStatus {
    /** The behaviour was applied. */
    OK,
    /** The frame is not a valid SRv6-INT packet; see {@link EndpointBehaviours#lastDecodeStatus()}. */
    MALFORMED,
    /** End.T.INT needs Segments Left of at least 1. */
    NO_SEGMENTS_LEFT,
    /** End.DT.INT needs Segments Left of 0. */
    SEGMENTS_LEFT_NOT_ZERO,
    /** The vNF steps need the S flag. */
    NOT_SFC_MODE,
    /** Hop Limit would reach 0: the packet must be dropped. */
    HOP_LIMIT_EXCEEDED,
    /** The output buffer is too small. */
    BUFFER_TOO_SMALL
}
