#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI step: the node agent's image, built here without a container engine (tools/image/build:
# Debian .debs pinned by sha256 in tools/image/debs.lock, a jlinked JRE, the agent's shaded jar,
# assembled into an OCI image layout). Checks: the layout's blobs are what their digests say; the
# base and JRE layers are the ones tools/image/layers.lock pins; a second build of the same jar
# gives the same image digest; the image's user, entrypoint and arguments are the DaemonSet's
# (k8s-bridge/deploy/agent/daemonset.yaml); every shared object in the image resolves inside it;
# from the unpacked rootfs (chroot, as root) the entrypoint prints the agent's usage, ovs-vsctl
# and ovs-ofctl run, and the agent replays the 40-agent fixture's capture through the image's
# libpcap and writes its decisions; the kustomize package (the example overlay with the
# Component the build wrote) names the image by this digest. Leaves node-agent/target/image
# (layout, digest, kustomize Component) for 35-install.sh, which installs with that digest.
# Budget: ≤ 2 min (two builds ~30 s each on 2 cores, the .debs downloaded once into
# ~/.cache/srv6int-image); needs root (chroot) and the `mvn install` output.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
t0=$SECONDS
JAR=$(ls node-agent/target/srv6int-node-agent-*-all.jar 2>/dev/null | head -n1)
passed=0; failed=0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
check() { # name, command...
  local name=$1; shift
  if "$@" >"$WORK/check.out" 2>&1; then passed=$((passed+1)); echo "ok   $name"
  else failed=$((failed+1)); echo "FAIL $name"; sed 's/^/     /' "$WORK/check.out" | tail -n 20; fi
}
finish() {
  echo "33-image: $((passed + failed)) checks in $((SECONDS - t0)) s"
  echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit
}
if [ -z "$JAR" ] || [ ! -d node-agent/target/test-classes ]; then
  echo "node agent jar or test classes missing: run mvn install first"; failed=1; finish
fi
OUT=$ROOT/node-agent/target/image
check "tools/image/build assembles the OCI layout" tools/image/build --jar "$JAR" --registry registry.example.org --out "$OUT"
[ -s "$OUT/digest" ] || finish
DIGEST=$(cat "$OUT/digest")
echo "     image $DIGEST"
check "a second build of the same jar gives the same digest" sh -c \
  "tools/image/build --jar '$JAR' --out '$WORK/again' >/dev/null && test \"\$(cat '$WORK/again/digest')\" = '$DIGEST'"

# --- the layout, its manifest and config
python3 - "$OUT/oci" "$ROOT/tools/image/layers.lock" "$WORK" <<'PY' >"$WORK/layout.txt" 2>&1
import hashlib, json, os, sys
lay, lock, work = sys.argv[1:4]
def blob(d):
    b = open(os.path.join(lay, "blobs", "sha256", d.split(":")[1]), "rb").read()
    assert "sha256:" + hashlib.sha256(b).hexdigest() == d, "blob %s: content does not match its digest" % d
    return b
assert json.load(open(os.path.join(lay, "oci-layout"))) == {"imageLayoutVersion": "1.0.0"}
index = json.load(open(os.path.join(lay, "index.json")))
[desc] = index["manifests"]
man = json.loads(blob(desc["digest"]))
assert len(blob(desc["digest"])) == desc["size"]
cfg = json.loads(blob(man["config"]["digest"]))
for layer in man["layers"]:
    assert len(blob(layer["digest"])) == layer["size"]
pins = {r.split()[0]: r.split()[1] for r in open(lock) if r.strip() and not r.startswith("#")}
diff = cfg["rootfs"]["diff_ids"]
assert diff[0] == pins["base"], "base layer %s, pinned %s" % (diff[0], pins["base"])
assert diff[1] == pins["jre"], "jre layer %s, pinned %s" % (diff[1], pins["jre"])
json.dump(cfg["config"], open(os.path.join(work, "config.json"), "w"))
with open(os.path.join(work, "layers"), "w") as f:
    f.write("\n".join(layer["digest"].split(":")[1] for layer in man["layers"]) + "\n")
print("manifest %s: %d layers, config %s" % (desc["digest"], len(man["layers"]), man["config"]["digest"]))
PY
rc=$?; cat "$WORK/layout.txt"
check "oci-layout, index.json, manifest, config and layers match their digests; base and JRE as layers.lock pins" test "$rc" -eq 0
[ "$rc" -eq 0 ] || finish

config_matches_daemonset() {
  python3 - "$WORK/config.json" "$ROOT/k8s-bridge/deploy/agent/daemonset.yaml" <<'PY'
import json, sys, yaml
cfg = json.load(open(sys.argv[1]))
ds = next(d for d in yaml.safe_load_all(open(sys.argv[2])) if d and d["kind"] == "DaemonSet")
c = next(c for c in ds["spec"]["template"]["spec"]["containers"] if c["name"] == "agent")
sc = c.get("securityContext", {})
uid, gid = cfg["User"].split(":")
print("image: user %s entrypoint %s cmd %s" % (cfg["User"], cfg["Entrypoint"], cfg.get("Cmd")))
print("daemonset: runAsUser %s runAsGroup %s command %s args %s" % (sc.get("runAsUser"), sc.get("runAsGroup"),
      c.get("command"), c.get("args")))
assert int(uid) == sc["runAsUser"] and int(gid) == sc["runAsGroup"], "user differs"
assert "command" not in c, "the DaemonSet overrides the image's entrypoint"
assert c.get("args") == cfg["Cmd"], "the DaemonSet's args differ from the image's Cmd"
assert cfg["Entrypoint"][0] == "/opt/java/bin/java" and cfg["Entrypoint"][-2:] == ["-jar", "/opt/srv6int/node-agent.jar"]
PY
}
check "image user/entrypoint/cmd agree with the DaemonSet (runAsUser, runAsGroup, no command, args)" config_matches_daemonset

# --- the rootfs, as a runtime unpacks it
RFS=$WORK/rootfs; mkdir -p "$RFS"
while read -r l; do tar -xzf "$OUT/oci/blobs/sha256/$l" -C "$RFS" || exit 1; done <"$WORK/layers"
libs_resolve() {
  local missing=0 f lib
  while IFS= read -r f; do
    for lib in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      [ -e "$RFS/usr/lib/x86_64-linux-gnu/$lib" ] || [ -e "$(dirname "$f")/$lib" ] || [ -e "$RFS/opt/java/lib/$lib" ] \
        || [ -e "$RFS/opt/java/lib/server/$lib" ] || { echo "${f#"$RFS"}: $lib not in the image"; missing=1; }
    done
  done < <(find "$RFS/usr" "$RFS/opt" -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c 'head -c4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
  echo "every NEEDED of $(find "$RFS/usr" "$RFS/opt" -type f -name '*.so*' | wc -l) shared objects and the executables checked"
  return $missing
}
check "every shared object the image's binaries and libraries need is in the image" libs_resolve
mapfile -t ENTRY < <(python3 -c 'import json,sys; [print(a) for a in json.load(open(sys.argv[1]))["Entrypoint"]]' "$WORK/config.json")
# As a runtime starts it: own mount and PID namespaces, /proc mounted (the JRE's launcher finds
# libjli.so through RPATH $ORIGIN, which the loader reads from /proc/self/exe), the config's Env.
in_image() {
  env -i PATH=/opt/java/bin:/usr/sbin:/usr/bin LANG=C.UTF-8 JAVA_HOME=/opt/java \
    unshare -m -p -f --mount-proc="$RFS/proc" /usr/sbin/chroot "$RFS" "$@"
}
usage() { # --help exits non-zero after the usage line
  local out; out=$(in_image "${ENTRY[@]}" --help 2>&1); echo "$out"; grep -q '^usage: node-agent --config' <<<"$out"
}
check "the image's entrypoint runs from the rootfs (chroot) and prints the agent's usage" usage
ovs_tools() { in_image ovs-vsctl --version && in_image ovs-ofctl --version; }
check "ovs-vsctl and ovs-ofctl run in the image" ovs_tools

# The 40-agent fixture (fake worker tree, pcap replay) replayed by the image's JRE, libpcap and
# jar: the fixture's paths are absolute, so its directory is bind-mounted at the same path.
FIX=$WORK/fixture; mkdir -p "$FIX" "$RFS$FIX"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
java -cp "$JAR:node-agent/target/test-classes" org.srv6int.agent.ReplayFixture "$FIX" "127.0.0.1:$PORT" >"$WORK/cpumax"
replay_in_image() {
  unshare -m -p -f --mount-proc="$RFS/proc" sh -c \
    'mount --bind "$1" "$2$1" && shift 2 && exec env -i PATH=/opt/java/bin:/usr/bin /usr/sbin/chroot "$@"' _ \
    "$FIX" "$RFS" "$RFS" "${ENTRY[@]}" --config "$FIX/agent.json" --pcap "$FIX/replay.pcap" --exit-after-replay \
    >"$WORK/replay.out" 2>"$WORK/replay.err"
  local rc=$?
  tail -n 5 "$WORK/replay.err"
  [ "$rc" -eq 0 ] && grep -q 'resources offered by this host' "$WORK/replay.err" && grep -q '"action":"REVERT"' "$FIX/decisions.jsonl" \
    && test "$(cat "$(head -n1 "$WORK/cpumax")")" = "180000 100000"
}
check "the agent in the image replays a capture through its libpcap and acts (cpu.max, decision log)" replay_in_image

# A registry client reads the layout and keeps its digest (skopeo, Debian package, when installed;
# docs/install.md pushes with it): copied to a second layout with --preserve-digests.
if command -v skopeo >/dev/null; then
  skopeo_copy() {
    skopeo copy -q --preserve-digests "oci:$OUT/oci" "oci:$WORK/copy:1.0.0" &&
      python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["digest"])' "$WORK/copy/index.json" \
      | tee /dev/stderr | grep -qx "$DIGEST"
  }
  check "skopeo copies the layout with the same digest ($(skopeo --version))" skopeo_copy
else
  echo "skip skopeo copy (skopeo not installed)"
fi

# --- the package names the image by digest
mkdir -p "$WORK/pkg/k8s-bridge" "$WORK/pkg/node-agent/target/image"
cp -r k8s-bridge/deploy k8s-bridge/overlays "$WORK/pkg/k8s-bridge/"
cp -r "$OUT/kustomize" "$WORK/pkg/node-agent/target/image/"
# the site's file the overlay needs (docs/install.md step 2 makes the real one): any PEM will do here
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=ci-onos-ca \
  -keyout "$WORK/ca.key" -out "$WORK/pkg/k8s-bridge/overlays/example/onos-ca.crt" 2>/dev/null
rendered_by_digest() {
  kubectl kustomize "$WORK/pkg/k8s-bridge/overlays/example" >"$WORK/rendered.yaml" || return 1
  local img; img=$(python3 -c 'import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == "DaemonSet": print(d["spec"]["template"]["spec"]["containers"][0]["image"])' "$WORK/rendered.yaml")
  echo "rendered: $img"; test "$img" = "registry.example.org/srv6int/node-agent@$DIGEST"
}
check "the kustomize package (example overlay) renders the DaemonSet's image by this digest" rendered_by_digest
finish
