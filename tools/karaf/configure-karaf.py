#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Configures a fresh Apache Karaf 4.2.9 for the Karaf step (tools/karaf/karaf-it).

Usage: configure-karaf.py KARAF_HOME SSH_PORT HTTP_PORT RMI_REGISTRY_PORT RMI_SERVER_PORT
"""
import re
import shutil
import sys
from pathlib import Path

home, ssh, http, rmi_reg, rmi_srv = sys.argv[1:6]
etc = Path(home) / "etc"


def edit(name, fn):
    p = etc / name
    p.write_text(fn(p.read_text()))


# Ports of this run (free ones, so parallel runs and other services do not collide).
edit("org.apache.karaf.shell.cfg", lambda s: re.sub(r"(?m)^sshPort *=.*$", "sshPort = " + ssh, s))
edit("org.apache.karaf.management.cfg",
     lambda s: re.sub(r"(?m)^rmiServerPort *=.*$", "rmiServerPort = " + rmi_srv,
                      re.sub(r"(?m)^rmiRegistryPort *=.*$", "rmiRegistryPort = " + rmi_reg, s)))
(etc / "org.ops4j.pax.web.cfg").write_text(
    "org.osgi.service.http.port=%s\norg.osgi.service.http.enabled=true\n"
    "org.osgi.service.http.secure.enabled=false\n"
    "org.ops4j.pax.web.config.file=${karaf.etc}/srv6int-jetty.xml\n" % http)
# The JAAS realm "karaf" the app's web.xml names (BASIC auth), as ONOS's jetty.xml declares it;
# no connector of its own (Pax Web's on the port above is the only one).
(etc / "srv6int-jetty.xml").write_text("""<?xml version="1.0"?>
<!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "http://www.eclipse.org/jetty/configure_9_0.dtd">
<Configure id="Server" class="org.eclipse.jetty.server.Server">
    <Call name="addBean">
        <Arg>
            <New class="org.eclipse.jetty.jaas.JAASLoginService">
                <Set name="name">karaf</Set>
                <Set name="loginModuleName">karaf</Set>
                <Set name="roleClassNames">
                    <Array type="java.lang.String">
                        <Item>org.apache.karaf.jaas.boot.principal.RolePrincipal</Item>
                    </Array>
                </Set>
            </New>
        </Arg>
    </Call>
</Configure>
""")

# Karaf cannot download here: system/ (filled by Maven) is its only repository.
(etc / "org.ops4j.pax.url.mvn.cfg").write_text(
    "org.ops4j.pax.url.mvn.offline=true\n"
    "org.ops4j.pax.url.mvn.useFallbackRepositories=false\n"
    "org.ops4j.pax.url.mvn.defaultRepositories="
    "${karaf.home.uri}${karaf.default.repository}@id=system.repository@snapshots\n"
    "org.ops4j.pax.url.mvn.repositories=\n")

shutil.copy(Path(__file__).with_name("onos-features.xml"), etc / "onos-features.xml")


def features(s):
    s = s.replace("featuresRepositories = \\\n",
                  "featuresRepositories = \\\n    file:${karaf.etc}/onos-features.xml, \\\n", 1)
    # Boot in two stages (wrap: must be up before a wrapped bundle is read): Karaf's own
    # features with scr and war, then ONOS's third-party, API and CLI features with the
    # bundles standing in for ONOS's core and its P4Runtime app (one resolution, no refresh).
    m = re.search(r"featuresBoot = \\\n((?:.*\\\n)*.*[^\\]\n)", s)
    karaf = [f.strip() for f in m.group(1).replace("\\", "").split(",") if f.strip()]
    boot = ("featuresBoot = (" + ", ".join(karaf + ["scr", "war"]) + "), (onos-thirdparty-base, "
            "onos-api, srv6int-onos-extras, onos-cli, srv6int-testkit)\n")
    s = s[:m.start()] + boot + s[m.end():]
    # ONOS's features are 1.2-era; Karaf 4.2's service-requirement check is off, as in ONOS.
    return s + "\nserviceRequirements=disable\n"


edit("org.apache.karaf.features.cfg", features)

# Add-ons of scr (JMX, bundle state) and of the web console (not installed): their parent
# POMs are not on Maven Central, so Maven cannot fetch them, and Karaf's resolver reads every
# conditional bundle of a feature; the container runs without them.
edit("org.apache.karaf.features.xml", lambda s: s.replace("</featuresProcessing>", """\
    <blacklistedBundles>
        <bundle>mvn:org.apache.karaf.scr/org.apache.karaf.scr.management/4.2.9</bundle>
        <bundle>mvn:org.apache.karaf.scr/org.apache.karaf.scr.state/4.2.9</bundle>
        <bundle>mvn:org.apache.karaf.webconsole/org.apache.karaf.webconsole.http/4.2.9</bundle>
        <bundle>mvn:org.apache.felix/org.apache.felix.webconsole.plugins.ds/2.1.0</bundle>
        <bundle>mvn:org.apache.felix/org.apache.felix.inventory/1.0.6</bundle>
    </blacklistedBundles>
</featuresProcessing>"""))
