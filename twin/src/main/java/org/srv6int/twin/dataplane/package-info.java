// SPDX-License-Identifier: Apache-2.0
/** The twin's switches: emulated PI execution or BMv2 over P4Runtime, behind one interface. */
package org.srv6int.twin.dataplane;
