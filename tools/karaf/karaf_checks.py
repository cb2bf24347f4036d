#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Helpers of the Karaf step (tools/karaf/karaf-it): what to expect, read from the .oar.

  bundles SYSTEM FEATURES_URL < bundle:list -t 0 -s    every bundle of the app's feature ACTIVE
  components SYSTEM FEATURES_URL < testkit:components  every DS component of our bundles ACTIVE
  netcfg NETCFG_JSON UDP_PORT                           testkit:netcfg-apply lines for the testbed
  commands CLI_SRC                                      the onos:* commands the cli module declares
  send-reports VECTORS UDP_PORT ROUNDS                  INT reports of the golden vectors over UDP
Exit status 1 when a check fails; the lines printed say what was found.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path


def manifest(jar):
    with zipfile.ZipFile(jar) as z:
        text = z.read("META-INF/MANIFEST.MF").decode("utf-8")
    headers, last = {}, None
    for line in text.splitlines():
        if line.startswith(" ") and last:
            headers[last] += line[1:]
        elif ":" in line:
            last, v = line.split(":", 1)
            headers[last] = v.strip()
    return headers


def mvn_path(system, url):
    """mvn:group/artifact/version[/type[/classifier]] -> file under system/."""
    parts = url.split("mvn:", 1)[1].split("$")[0].split("/")
    g, a, v = parts[0], parts[1], parts[2]
    t = parts[3] if len(parts) > 3 and parts[3] else "jar"
    c = "-" + parts[4] if len(parts) > 4 else ""
    return Path(system, *g.split("."), a, v, "%s-%s%s.%s" % (a, v, c, t))


def feature_bundles(system, features_url):
    root = ET.parse(mvn_path(system, features_url)).getroot()
    out = []
    for b in root.iter():
        if b.tag.endswith("bundle"):
            jar = mvn_path(system, b.text.strip())
            h = manifest(jar)
            out.append((h["Bundle-SymbolicName"].split(";")[0].strip(), h["Bundle-Version"], jar, h))
    return out


def table(text):
    """Rows of a Karaf table (columns split on the box-drawing bar)."""
    rows = []
    for line in text.splitlines():
        if "\u2502" in line:
            rows.append([c.strip() for c in line.split("\u2502")])
    return rows


def bundles(system, features_url):
    listed = {(r[4], r[3]): r[1] for r in table(sys.stdin.read()) if len(r) >= 5 and r[0].isdigit()}
    failed = 0
    for bsn, version, _, _ in feature_bundles(system, features_url):
        state = listed.get((bsn, version), "MISSING")
        failed += state != "Active"
        print("%-8s %s %s" % (state.upper(), bsn, version))
    return 1 if failed else 0


def components(system, features_url):
    seen = {}
    for line in sys.stdin.read().splitlines():
        f = line.split()
        if len(f) >= 3:
            seen[f[2]] = line.strip()
    failed = 0
    for bsn, _, jar, h in feature_bundles(system, features_url):
        sc = h.get("Service-Component")
        if not sc:
            continue
        with zipfile.ZipFile(jar) as z:
            for entry in sc.split(","):
                xml = z.read(entry.strip()).decode("utf-8")
                name = re.search(r'<scr:component[^>]*\sname="([^"]+)"', xml) or \
                    re.search(r'<component[^>]*\sname="([^"]+)"', xml)
                n = name.group(1)
                line = seen.get(n, "MISSING %s %s" % (bsn, n))
                failed += not line.startswith("ACTIVE ")
                print(line)
    return 1 if failed else 0


def netcfg(path, udp_port):
    d = json.load(open(path))
    for dev, cfgs in d["devices"].items():
        c = dict(cfgs["srv6int"])
        if c["intDeviceId"] == 4:
            c["reportAddress"] = "127.0.0.1"  # the vectors' reports are sent from here
        print("testkit:netcfg-apply devices %s srv6int '%s'" % (dev, json.dumps(c)))
    app = dict(d["apps"]["org.srv6int.app"]["srv6int"])
    app["collector"] = dict(app["collector"], address="127.0.0.1", port=int(udp_port))
    print("testkit:netcfg-apply apps org.srv6int.app srv6int '%s'" % json.dumps(app))
    return 0


def send_reports(vectors, port, rounds):
    """Sends the UDP payloads of the INT-report vectors to the collector; prints how many."""
    import socket
    reports = [json.loads(Path(vectors, n + ".json").read_text())
               for n in ("sfc-7-sw4-report", "plain-5-sw4-report")]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    n = 0
    for _ in range(int(rounds)):
        for v in reports:
            frame = bytes.fromhex(v["hex"])
            s.sendto(frame[14 + 20 + 8:], ("127.0.0.1", int(port)))  # Ethernet/IPv4/UDP stripped
            n += 1
    print(n)
    return 0


def refreshes(system, features_url):
    """Bundles Karaf refreshed because of the app's feature: reads karaf.log lines (stdin) of
    one install/uninstall and prints every refreshed bundle outside the .oar whose reason leads
    to a bundle of the .oar ("Should be wired to" one of them, or "Wired to" one, directly or
    through bundles refreshed for that reason). Refreshes the container does for its own
    bundles (an optional import of one ONOS bundle to another) are not the app's doing."""
    oar = {"%s/%s" % (bsn, version) for bsn, version, _, _ in feature_bundles(system, features_url)}
    entries, inside = {}, False
    for line in sys.stdin.read().splitlines():
        text = line.split(" | ")[-1].strip() if " | " in line else line.strip()
        if text.startswith("Refreshing bundles:"):
            inside = True
        elif text.startswith("Starting bundles:") or text.startswith("Stopping bundles:"):
            inside = False
        elif inside:
            m = re.match(r"(\S+) \((.*)\)$", text)
            if m:
                entries[m.group(1)] = m.group(2)

    def caused(name, seen=()):
        reason = entries.get(name, "")
        targets = re.findall(r"(?:Wired to|Should be wired to:) (\S+)", reason)
        for t in targets:
            if t in oar or (t in entries and t not in seen and caused(t, seen + (name,))):
                return True
        return False

    out = sorted(n for n in entries if n not in oar and caused(n))
    for n in out:
        print("%s (%s)" % (n, entries[n][:160]))
    return 0


def commands(src):
    names = []
    for f in sorted(Path(src).rglob("*.java")):
        for m in re.finditer(r'@Command\(\s*scope\s*=\s*"onos",\s*name\s*=\s*"([^"]+)"', f.read_text()):
            names.append(m.group(1))
    print(" ".join(names))
    return 0 if names else 1


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    sys.exit({"bundles": bundles, "components": components, "netcfg": netcfg, "commands": commands,
              "send-reports": send_reports, "refreshes": refreshes}[cmd](*args))
