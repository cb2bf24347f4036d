// SPDX-License-Identifier: Apache-2.0
/** The paper's experiments (Figs. 8-12) as twin scenarios. */
package org.srv6int.twin.scenario;
