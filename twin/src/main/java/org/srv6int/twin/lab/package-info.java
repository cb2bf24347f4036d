// SPDX-License-Identifier: Apache-2.0
/** The lab (docs/lab.md): the emulated switch as a process between veths, and the lab's reports. */
package org.srv6int.twin.lab;
