// SPDX-License-Identifier: Apache-2.0
/**
 * The node agents' identity: each agent's projected ServiceAccount token, reviewed by the API
 * server, bound to the node the agent reports for (docs/security.md, "Node-bound identity").
 */
package org.srv6int.app.auth;
