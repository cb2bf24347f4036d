/**
 * Checks of the packaged ONOS application archive (.oar).
 */
package org.srv6int.tests.oar;
