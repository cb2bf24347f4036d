// SPDX-License-Identifier: Apache-2.0
/**
 * Per-vNF latency windows: N Detection Result samples, L95 by selection.
 */
package org.srv6int.agent.window;
