// SPDX-License-Identifier: Apache-2.0
/**
 * Checks of the packaged ONOS application archive (.oar).
 */
package org.srv6int.tests.oar;
