// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;

/**
 * Resumes the global loop of one chain (REST: POST /loop/chains/{id}/resume).
 */
@Service
@Command(scope = "onos", name = "loop-resume", description = "Resumes the global loop of one chain")
public class LoopResumeCommand extends LoopPauseCommand {

    @Override
    boolean resume() {
        return true;
    }
}
