/**
 * Placeholder until the part lands.
 */
package org.srv6int.k8s.bridge;
