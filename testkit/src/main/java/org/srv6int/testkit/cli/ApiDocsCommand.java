// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit.cli;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.rest.ApiDocProvider;
import org.onosproject.rest.ApiDocService;
import org.srv6int.testkit.InMemoryApiDocService;

/**
 * Lists the registered REST API documents: key, name and the size of the swagger document
 * as ONOS's /onos/v1/docs would load it (-1: missing).
 */
@Service
@Command(scope = "testkit", name = "api-docs", description = "Lists registered REST API documents")
public class ApiDocsCommand implements Action {

    @Reference
    ApiDocService docs;

    @Override
    public Object execute() {
        for (ApiDocProvider p : docs.getDocProviders()) {
            System.out.printf("api %s \"%s\" swagger.json %d%n", p.key(), p.name(), InMemoryApiDocService.docsSize(p));
        }
        return null;
    }
}
