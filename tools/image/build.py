# SPDX-License-Identifier: Apache-2.0
"""Assembles the node agent's image as an OCI image layout, without a container engine.

Three layers, each a tar with sorted entries, owner 0:0, mtime 0 and normalised modes, so the
same inputs give the same bytes and digests:
  1. base: the Debian packages of debs.lock (sha256-checked), unpacked with dpkg-deb, merged
     into a /usr-merged tree, plus /etc/passwd, /etc/group, /etc/nsswitch.conf and the
     directories the DaemonSet mounts on;
  2. jre:  a jlinked runtime (the modules of jre-modules) of the build's JDK 17 under /opt/java;
  3. app:  the node agent's shaded jar as /opt/srv6int/node-agent.jar.
The base and jre layers are pinned by their uncompressed digests (diff_ids) in layers.lock: a
build whose base or jre differs fails (or --relock rewrites the pin). The app layer changes
with every build of the jar, so its digest, and the image's, are computed here and written to
<out>/digest and, with --registry, into a kustomize Component that sets the DaemonSet's image
by digest.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
IMAGE = "srv6int/node-agent"
# The image's process: the same user and arguments as the DaemonSet (checked by 33-image.sh).
USER = "0:0"
ENTRYPOINT = ["/opt/java/bin/java", "-XX:+UseSerialGC", "-Xmx192m", "-Djna.nosys=true",
              "-jar", "/opt/srv6int/node-agent.jar"]
CMD = ["--config", "/etc/srv6int/agent.json"]
ENV = ["PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
       "JAVA_HOME=/opt/java", "LANG=C.UTF-8"]
DOCS = ("usr/share/doc/", "usr/share/man/", "usr/share/info/", "usr/share/lintian/",
        "usr/share/locale/", "usr/share/bug/", "usr/share/bash-completion/", "usr/share/gdb/",
        "usr/share/gcc/")
MERGED = {"bin": "usr/bin", "sbin": "usr/sbin", "lib": "usr/lib", "lib64": "usr/lib64"}
# apt-get's own download client; its sandbox user cannot write a root-owned cache, hence root.
APT_GET = ["apt-get", "-q", "-o", "APT::Sandbox::User=root", "download"]
ARCH_LIB = "usr/lib/x86_64-linux-gnu"
# java.desktop's native libraries that link X11, sound, fonts and images; the agent uses only
# java.beans from that module, so they stay out (and with them their host libraries).
AWT_NATIVE = ("libawt_xawt.so", "libjawt.so", "libfontmanager.so", "libjavajpeg.so", "libsplashscreen.so",
              "liblcms.so", "libjsound.so")


def die(msg):
    sys.exit("tools/image/build: " + msg)


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_lock(path):
    rows = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append(line.split())
    return rows


class Tree:
    """A file tree in memory: path -> (kind, mode, payload); kind f(ile) d(ir) l(ink)."""

    def __init__(self):
        self.entries = {}

    def add(self, path, kind, mode, payload=b"", origin=""):
        path = path.strip("/")
        if not path:
            return
        self.dirs(os.path.dirname(path))
        old = self.entries.get(path)
        if old is not None:
            if old[0] == "d" and kind == "d":
                return
            if old[:3] != (kind, mode, payload):
                die("%s: %s conflicts with an earlier package" % (origin, path))
        self.entries[path] = (kind, mode, payload)

    def dirs(self, path):
        parts = [p for p in path.split("/") if p]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in self.entries:
                self.entries[d] = ("d", 0o755, b"")

    def tar(self):
        """The tree as tar bytes: sorted paths, 0:0, mtime 0; same tree, same bytes."""
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
            for path in sorted(self.entries):
                kind, mode, payload = self.entries[path]
                info = tarfile.TarInfo(path)
                info.mtime = 0
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                info.mode = mode
                if kind == "d":
                    info.type = tarfile.DIRTYPE
                    tf.addfile(info)
                elif kind == "l":
                    info.type = tarfile.SYMTYPE
                    info.linkname = payload.decode()
                    tf.addfile(info)
                else:
                    info.size = len(payload)
                    tf.addfile(info, io.BytesIO(payload))
        return buf.getvalue()


def norm_mode(mode, kind):
    if kind == "d":
        return 0o1777 if mode & 0o1000 else 0o755
    if kind == "l":
        return 0o777
    return 0o755 if mode & 0o111 else 0o644


def merged(path):
    head, _, rest = path.partition("/")
    return MERGED[head] + ("/" + rest if rest else "") if head in MERGED else path


def fetch_debs(rows, cache):
    os.makedirs(cache, exist_ok=True)
    paths = []
    for name, version, digest, _keep in rows:
        fname = "%s_%s_amd64.deb" % (name, version.split(":")[-1])
        path = os.path.join(cache, fname)
        if not os.path.exists(path):
            r = subprocess.run(APT_GET + ["%s=%s" % (name, version)], cwd=cache,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            got = [f for f in os.listdir(cache) if f.startswith(name + "_") and f.endswith(".deb")
                   and version.split(":")[-1] in f]
            if r.returncode != 0 or not got:
                die("cannot download %s=%s (%s); if Debian replaced it, run tools/image/build --relock"
                    % (name, version, r.stdout.strip().splitlines()[-1:] or "apt-get failed"))
            os.rename(os.path.join(cache, got[0]), path)
        have = hashlib.sha256(open(path, "rb").read()).hexdigest()
        if have != digest:
            die("%s: sha256 %s, debs.lock pins %s" % (fname, have, digest))
        paths.append(path)
    return paths


def base_tree(rows, debs):
    tree = Tree()
    for (name, _v, _d, keep), deb in sorted(zip(rows, debs)):
        data = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], check=True, stdout=subprocess.PIPE).stdout
        wanted = None if keep == "*" else set(keep.split(","))
        with tarfile.open(fileobj=io.BytesIO(data)) as tf:
            members = tf.getmembers()
            by_name = {m.name: m for m in members}
            for m in members:
                path = merged(os.path.normpath(m.name).lstrip("./").lstrip("/")) if m.name not in (".", "./") else ""
                if not path or path.startswith(DOCS) or (wanted is not None and path not in wanted):
                    continue
                if m.isdir():
                    tree.add(path, "d", norm_mode(m.mode, "d"), origin=name)
                elif m.issym():
                    tree.add(path, "l", 0o777, m.linkname.encode(), origin=name)
                elif m.islnk():
                    src = by_name.get(m.linkname) or by_name.get("./" + m.linkname.lstrip("./"))
                    tree.add(path, "f", norm_mode(src.mode, "f"), tf.extractfile(src).read(), origin=name)
                elif m.isfile():
                    tree.add(path, "f", norm_mode(m.mode, "f"), tf.extractfile(m).read(), origin=name)
    for link, target in MERGED.items():
        tree.add(link, "l", 0o777, target.encode())
    tree.add(ARCH_LIB + "/libpcap.so", "l", 0o777, b"libpcap.so.0.8")  # JNA asks for "pcap"
    tree.add("etc/passwd", "f", 0o644, b"root:x:0:0:root:/root:/usr/sbin/nologin\n"
             b"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
    tree.add("etc/group", "f", 0o644, b"root:x:0:\nnogroup:x:65534:\n")
    tree.add("etc/nsswitch.conf", "f", 0o644, b"passwd: files\ngroup: files\nhosts: files dns\n")
    for d in ("root", "tmp", "etc/srv6int", "var/log/srv6int", "run/openvswitch", "host", "proc", "sys", "dev"):
        tree.add(d, "d", 0o1777 if d == "tmp" else 0o755)
    tree.add("var/run", "l", 0o777, b"../run")
    return tree


def jdk_version(java_home):
    for line in open(os.path.join(java_home, "release")):
        if line.startswith("JAVA_RUNTIME_VERSION="):
            return line.split("=", 1)[1].strip().strip('"')
    die("no JAVA_RUNTIME_VERSION in %s/release" % java_home)


def jre_tree(java_home, modules):
    tmp = tempfile.mkdtemp(prefix="srv6int-jre-")
    out = os.path.join(tmp, "java")
    try:
        subprocess.run([os.path.join(java_home, "bin", "jlink"), "--add-modules", ",".join(modules),
                        "--strip-debug", "--no-header-files", "--no-man-pages", "--compress=2",
                        "--exclude-files=" + ",".join("**/" + lib for lib in AWT_NATIVE),
                        "--output", out], check=True)
        tree = Tree()
        for dirpath, dirnames, filenames in os.walk(out):
            dirnames.sort()
            rel = os.path.relpath(dirpath, out)
            base = "opt/java" if rel == "." else "opt/java/" + rel
            tree.add(base, "d", 0o755)
            for f in filenames:
                p = os.path.join(dirpath, f)
                if os.path.islink(p):
                    tree.add(base + "/" + f, "l", 0o777, os.readlink(p).encode())
                else:
                    tree.add(base + "/" + f, "f", norm_mode(os.stat(p).st_mode, "f"), open(p, "rb").read())
        return tree
    finally:
        shutil.rmtree(tmp)


class Layout:
    def __init__(self, path):
        self.path = path
        if os.path.exists(path):
            shutil.rmtree(path)
        os.makedirs(os.path.join(path, "blobs", "sha256"))

    def blob(self, data, media_type):
        digest = sha256(data)
        with open(os.path.join(self.path, "blobs", "sha256", digest[7:]), "wb") as f:
            f.write(data)
        return {"mediaType": media_type, "digest": digest, "size": len(data)}


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jar", help="the agent's shaded jar (default node-agent/target/srv6int-node-agent-*-all.jar)")
    ap.add_argument("--out", default=os.path.join(ROOT, "node-agent", "target", "image"))
    ap.add_argument("--registry", help="write <out>/kustomize, a Component setting the image to "
                    "<registry>/srv6int/node-agent@<digest>")
    ap.add_argument("--relock", action="store_true", help="re-pin debs.lock and layers.lock from this machine")
    ap.add_argument("--cache", default=os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                                                    "srv6int-image", "debs"))
    args = ap.parse_args()
    jar = args.jar
    if not jar:
        target = os.path.join(ROOT, "node-agent", "target")
        jars = sorted(f for f in os.listdir(target) if re.match(r"srv6int-node-agent-.*-all\.jar$", f)) \
            if os.path.isdir(target) else []
        if not jars:
            die("no node-agent/target/srv6int-node-agent-*-all.jar: run mvn install first")
        jar = os.path.join(target, jars[0])
    debs_lock = os.path.join(HERE, "debs.lock")
    layers_lock = os.path.join(HERE, "layers.lock")
    rows = read_lock(debs_lock)
    if args.relock:
        relock_debs(debs_lock, rows, args.cache)
        rows = read_lock(debs_lock)
    java_home = os.environ.get("JAVA_HOME") or \
        os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("java") or die("no java on PATH"))))
    modules = [m for row in read_lock(os.path.join(HERE, "jre-modules")) for m in row]
    layers = [("base", base_tree(rows, fetch_debs(rows, args.cache))),
              ("jre", jre_tree(java_home, modules))]
    app = Tree()
    app.add("opt/srv6int/node-agent.jar", "f", 0o644, open(jar, "rb").read())
    layers.append(("app", app))
    jdk = jdk_version(java_home)
    lay = Layout(os.path.join(args.out, "oci"))
    descriptors, diff_ids, pins = [], [], {}
    for name, tree in layers:
        raw = tree.tar()
        diff_ids.append(sha256(raw))
        pins[name] = sha256(raw)
        gz = gzip.compress(raw, compresslevel=6, mtime=0)
        descriptors.append(lay.blob(gz, "application/vnd.oci.image.layer.v1.tar+gzip"))
        print("layer %-4s %6.1f MB (%5.1f MB gzip)  diff_id %s" % (name, len(raw) / 1e6, len(gz) / 1e6, sha256(raw)),
              file=sys.stderr)
    check_pins(layers_lock, pins, jdk, args.relock)
    version = os.path.basename(jar)[len("srv6int-node-agent-"):-len("-all.jar")]
    config = {
        "architecture": "amd64", "os": "linux",
        "config": {"User": USER, "Entrypoint": ENTRYPOINT, "Cmd": CMD, "Env": ENV, "WorkingDir": "/",
                   "Labels": {"org.opencontainers.image.title": "srv6int-node-agent",
                              "org.opencontainers.image.version": version,
                              "org.srv6int.jdk": jdk}},
        "rootfs": {"type": "layers", "diff_ids": diff_ids},
        "history": [{"created_by": "tools/image/build: " + n} for n, _ in layers],
    }
    cfg = lay.blob(canonical(config), "application/vnd.oci.image.config.v1+json")
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "config": cfg, "layers": descriptors}
    man = lay.blob(canonical(manifest), "application/vnd.oci.image.manifest.v1+json")
    man["annotations"] = {"org.opencontainers.image.ref.name": version}
    with open(os.path.join(lay.path, "index.json"), "wb") as f:
        f.write(canonical({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                           "manifests": [man]}))
    with open(os.path.join(lay.path, "oci-layout"), "wb") as f:
        f.write(canonical({"imageLayoutVersion": "1.0.0"}))
    with open(os.path.join(args.out, "digest"), "w") as f:
        f.write(man["digest"] + "\n")
    if args.registry:
        comp = os.path.join(args.out, "kustomize")
        os.makedirs(comp, exist_ok=True)
        with open(os.path.join(comp, "kustomization.yaml"), "w") as f:
            f.write("# Written by tools/image/build: the node agent's image by digest.\n"
                    "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nimages:\n"
                    "  - name: %s\n    newName: %s/%s\n    digest: %s\n"
                    % (IMAGE, args.registry.rstrip("/"), IMAGE, man["digest"]))
    print(man["digest"])


def check_pins(path, pins, jdk, relock):
    want = {}
    if os.path.exists(path):
        for row in read_lock(path):
            want[row[0]] = row[1:]
    if relock:
        with open(path, "w") as f:
            f.write("# SPDX-License-Identifier: Apache-2.0\n"
                    "# The node agent image's pinned layers (tools/image/build --relock writes this file): the\n"
                    "# uncompressed digest (diff_id) of the base layer (debs.lock's packages) and of the jlinked\n"
                    "# JRE with the JDK it is linked from. The app layer (the agent's jar) is not pinned: its\n"
                    "# bytes change with every build; the build writes the image's digest (node-agent/target/image).\n")
            f.write("base %s\njre %s %s\n" % (pins["base"], pins["jre"], jdk))
        return
    if want.get("base", [None])[0] != pins["base"]:
        die("base layer %s, layers.lock pins %s" % (pins["base"], want.get("base")))
    if want.get("jre", [None, None])[1] != jdk:
        die("this JDK is %s, layers.lock pins the JRE of %s: install that JDK or run --relock"
            % (jdk, want.get("jre", [None, None])[1]))
    if want["jre"][0] != pins["jre"]:
        die("jre layer %s, layers.lock pins %s (JDK %s)" % (pins["jre"], want["jre"][0], jdk))


def relock_debs(path, rows, cache):
    lines = [line for line in open(path) if line.startswith("#")]
    os.makedirs(cache, exist_ok=True)
    for row in rows:
        name, keep = row[0], row[3]
        version = subprocess.run(["apt-cache", "policy", name], check=True, stdout=subprocess.PIPE,
                                 text=True).stdout.split("Candidate:")[1].split()[0]
        tmp = tempfile.mkdtemp(dir=cache)
        subprocess.run(APT_GET + ["%s=%s" % (name, version)], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        deb = os.path.join(tmp, os.listdir(tmp)[0])
        digest = hashlib.sha256(open(deb, "rb").read()).hexdigest()
        os.rename(deb, os.path.join(cache, "%s_%s_amd64.deb" % (name, version.split(":")[-1])))
        os.rmdir(tmp)
        lines.append("%s %s %s %s\n" % (name, version, digest, keep))
    with open(path, "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
