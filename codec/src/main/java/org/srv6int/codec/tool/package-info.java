// SPDX-License-Identifier: Apache-2.0
/**
 * Command-line tools and the golden vector generator built on the codec:
 * {@code srv6int-decode} ({@link org.srv6int.codec.tool.DecodeTool}),
 * {@code srv6int-pcap} ({@link org.srv6int.codec.tool.PcapTool}), the JSON
 * renderer shared by both and by the vectors, and a classic pcap reader/writer.
 * Not exported from the bundle.
 */
package org.srv6int.codec.tool;
