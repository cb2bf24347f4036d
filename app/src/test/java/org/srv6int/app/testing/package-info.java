/**
 * Test fixtures other tests reuse: the paper's testbed and fakes of the ONOS
 * services the app talks to, each behaving like the real service for what
 * the app uses.
 */
package org.srv6int.app.testing;
