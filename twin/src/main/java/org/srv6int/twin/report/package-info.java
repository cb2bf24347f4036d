// SPDX-License-Identifier: Apache-2.0
/** Writers of the twin's outputs: timeline.csv, resources.csv, summary.json and PNG plots. */
package org.srv6int.twin.report;
