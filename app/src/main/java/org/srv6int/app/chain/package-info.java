// SPDX-License-Identifier: Apache-2.0
/** The chain service: creates, updates and removes service function chains over the chain store. */
package org.srv6int.app.chain;
