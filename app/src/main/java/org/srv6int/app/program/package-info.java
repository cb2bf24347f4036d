// SPDX-License-Identifier: Apache-2.0
/**
 * Flow programming: translation of chains, replicas and netcfg into PI flow
 * rules and groups of the SRv6-INT P4 program (docs/p4-tables.md), and the
 * reconciler that installs them make-before-break on the devices this ONOS
 * instance masters.
 */
package org.srv6int.app.program;
