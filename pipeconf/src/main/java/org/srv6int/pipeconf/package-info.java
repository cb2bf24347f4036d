// SPDX-License-Identifier: Apache-2.0
/**
 * ONOS pipeconf of the SRv6-INT P4 program: registration with the
 * {@link org.onosproject.net.pi.service.PiPipeconfService}, the pipeline
 * interpreter (packet-in/out, criterion and treatment mapping), a pipeliner for
 * packet-in requests, the P4Runtime names generated from the p4info
 * ({@link org.srv6int.pipeconf.Srv6IntConstants}) and typed builders of the
 * program's actions ({@link org.srv6int.pipeconf.Srv6IntActions}).
 */
package org.srv6int.pipeconf;
