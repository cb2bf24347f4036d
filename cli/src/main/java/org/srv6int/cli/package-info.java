/**
 * Placeholder until the part lands.
 */
package org.srv6int.cli;
