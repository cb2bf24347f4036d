// SPDX-License-Identifier: Apache-2.0
/**
 * The switches' state read back from ONOS's flow store: which bucket entries still steer to a
 * SID or into a chain ({@code SidSteering}), the counters of classifier and SID entries
 * ({@code SwitchCounters}), and the decoding of the app's own entries ({@code FlowEntries}).
 * The flow programming (program), the global loop (loop) and the Kubernetes platform (k8s)
 * read through it; it depends on the model and the pipeconf only.
 */
package org.srv6int.app.switchstate;
