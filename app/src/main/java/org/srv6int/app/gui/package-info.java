// SPDX-License-Identifier: Apache-2.0
/**
 * ONOS web GUI topology overlay (legacy GUI) for SRv6-INT service function chains:
 * highlights the selected chain's path, vNF switches and replicas, badges each
 * device with its worst vNF tail latency slack, and shows a chain's live telemetry
 * and global-loop decisions in the details panel.
 */
package org.srv6int.app.gui;
