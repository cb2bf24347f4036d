// SPDX-License-Identifier: Apache-2.0
/**
 * SRv6-INT wire-format codec (docs/wire-format.md): allocation-free decoder
 * views ({@link org.srv6int.codec.Srv6IntPacketView},
 * {@link org.srv6int.codec.IntReportView}) that count every rejection by
 * reason ({@link org.srv6int.codec.DecodeErrors}), and the reference encoders
 * of the behaviours H.Encaps.INT ({@link org.srv6int.codec.Srv6IntEncap}),
 * End.T.INT / End.DT.INT ({@link org.srv6int.codec.EndpointBehaviours}) and
 * the INT report ({@link org.srv6int.codec.IntReportEncoder}). Plain Java, no
 * ONOS dependency.
 */
package org.srv6int.codec;
