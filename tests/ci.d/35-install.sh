#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI step: docs/install.md is the script. Extracts the Kubernetes steps of the install
# sequence (the blocks fenced ```sh install-k8s, in order) and runs them as written, as one
# bash script under `set -euo pipefail`, against a real control plane (tools/k8s-testenv:
# kube-apiserver 1.36 with RBAC and Pod Security admission, controller-manager, scheduler,
# KWOK workers worker1/worker2), from a directory holding a copy of k8s-bridge/deploy. Any
# command that does not apply, is not admitted or whose check fails fails the step. Then
# checks what the sequence left (namespaces and their Pod Security levels, the agent pods
# Running on the labelled workers, the Service the agents post to, the Secrets; a replica
# StatefulSet as the bridge makes it, created with the token the sequence wrote for ONOS, is
# admitted in srv6int-sfc under enforced restricted and its pod runs), and runs
# upstream Prometheus (built from the Go module proxy by tools/k8s-testenv/build-prometheus;
# Debian's lacks the Kubernetes discovery) with the scrape config of docs/metrics.md (the
# ```yaml prometheus-scrape block, only its file paths pointed at this run's files) against
# this API server, as the
# ServiceAccount srv6int-prometheus through the kubeconfig the sequence wrote: the agent
# pods must become targets labelled with their node. The same relabelling on the old label
# (`app`, which the DaemonSet does not carry) is run beside it and must keep no target.
# Then runs the page's removal block and its kustomize block (the base k8s-bridge/deploy with
# the overlay k8s-bridge/overlays/example) on the cleared cluster and checks the overlay's values
# arrived. Own run directory and ports, so it does not stop a control plane of 30-k8s.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
TESTENV=$ROOT/tools/k8s-testenv
export SRV6INT_K8S_RUN=${SRV6INT_K8S_RUN_INSTALL:-${XDG_CACHE_HOME:-$HOME/.cache}/srv6int-k8s/run-install}
export SRV6INT_K8S_APISERVER_PORT=${SRV6INT_K8S_INSTALL_PORT:-17443}
export SRV6INT_K8S_ETCD_PORT=$((SRV6INT_K8S_APISERVER_PORT - 4000)) SRV6INT_K8S_ETCD_PEER_PORT=$((SRV6INT_K8S_APISERVER_PORT - 3999))
. "$TESTENV/env.sh"
t0=$SECONDS
WORK=$(mktemp -d)
PROM_PID=
cleanup() {
  [ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null && wait "$PROM_PID" 2>/dev/null
  "$TESTENV/stop" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@" >"$WORK/check.out" 2>&1; then passed=$((passed+1)); echo "ok   $name"
  else failed=$((failed+1)); echo "FAIL $name"; sed 's/^/     /' "$WORK/check.out" | head -n 20; fi
}
finish() {
  echo "35-install: $((passed + failed)) checks in $((SECONDS - t0)) s (incl. control plane start)"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]; exit
}
"$TESTENV/stop" >/dev/null 2>&1 # a leftover from an interrupted run
if ! "$TESTENV/start" >"$WORK/start.log" 2>&1; then
  cat "$WORK/start.log"; tail -n 20 "$K8S_RUN"/log/*.log 2>/dev/null
  echo "35-install: control plane did not start"; failed=1; finish
fi
tail -n 3 "$WORK/start.log"
export KUBECONFIG=$K8S_RUN/admin.kubeconfig

# --- the sequence, as docs/install.md writes it
extract() { # tag[:step]... -> one bash script of docs/install.md's blocks fenced ```sh <tag>
  # (only the block of that step, if given), in the page's order
  python3 - "$ROOT/docs/install.md" "$@" <<'PY'
import re, shlex, sys
text = open(sys.argv[1]).read()
wanted = [a.split(":", 1) + [None] for a in sys.argv[2:]]
print("set -euo pipefail")
print("trap 'echo \"install: failed at line $LINENO: $BASH_COMMAND\" >&2' ERR")
for tag, b in re.findall(r"^```sh (\S+)\n(.*?)^```$", text, re.S | re.M):
    first = b.splitlines()[0]
    name = first[len("# step "):] if first.startswith("# step ") else first
    if not any(t == tag and (s is None or s == name) for t, s, *_ in wanted):
        continue
    print("echo %s" % shlex.quote("--- " + name))
    print(b, end="")
PY
}
extract install-k8s >"$WORK/install-k8s.sh"
nblocks=$(grep -c '^echo .--- ' "$WORK/install-k8s.sh")
check "docs/install.md has install-k8s blocks ($nblocks)" test "$nblocks" -ge 8
mkdir -p "$WORK/run/k8s-bridge"
cp -r "$ROOT/k8s-bridge/deploy" "$ROOT/k8s-bridge/overlays" "$WORK/run/k8s-bridge/"
rm -f "$WORK/run/k8s-bridge/overlays/example/onos-ca.crt"
# step 5 (on a build machine) leaves the image's digest and the kustomize Component naming it:
# tests/ci.d/33-image.sh built them from this tree
if [ ! -s "$ROOT/node-agent/target/image/digest" ]; then
  echo "node-agent/target/image missing: run tests/ci.d/33-image.sh (or tools/image/build --registry registry.example.org)"
  failed=1; finish
fi
mkdir -p "$WORK/run/node-agent/target/image"
cp -r "$ROOT/node-agent/target/image/digest" "$ROOT/node-agent/target/image/kustomize" "$WORK/run/node-agent/target/image/"
AGENT_DIGEST=$(cat "$ROOT/node-agent/target/image/digest")
# step 2 of the sequence (on the ONOS side) leaves Prometheus' ONOS password in this file
mkdir -p "$WORK/run/srv6int-install"; (umask 077; echo "ci-$RANDOM-password" >"$WORK/run/srv6int-install/onos-metrics-password")
(cd "$WORK/run" && timeout 600 bash "$WORK/install-k8s.sh") >"$WORK/install.log" 2>&1
rc=$?
sed 's/^/     | /' "$WORK/install.log" | grep -v '^     | *$' | tail -n 60
check "docs/install.md's Kubernetes steps ran as written (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || finish
OUT=$WORK/run/srv6int-install

# --- what the sequence left
label() { kubectl get ns "$1" -o jsonpath="{.metadata.labels.pod-security\.kubernetes\.io/$2}"; }
check "the agent DaemonSet runs step 5's image by digest" test "$(kubectl -n srv6int get ds srv6int-node-agent \
  -o jsonpath='{.spec.template.spec.containers[0].image}')" = "registry.example.org/srv6int/node-agent@$AGENT_DIGEST"
check "srv6int enforces Pod Security privileged" test "$(label srv6int enforce)" = privileged
check "srv6int-sfc enforces restricted" test "$(label srv6int-sfc enforce)" = restricted
check "srv6int-sfc warns and audits restricted" test "$(label srv6int-sfc warn)/$(label srv6int-sfc audit)" = restricted/restricted
agents_running() {
  local want got
  want=$(kubectl get nodes -l srv6int.org/vnf-worker=true -o name | wc -l)
  got=$(kubectl -n srv6int get pods -l app.kubernetes.io/name=srv6int-node-agent \
        --field-selector=status.phase=Running -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | sort -u | wc -l)
  echo "labelled workers $want, nodes with a Running agent $got"; [ "$want" -ge 2 ] && [ "$got" -eq "$want" ]
}
check "one agent pod Running on every labelled worker" agents_running
DS_JSON=$(kubectl -n srv6int get ds srv6int-node-agent -o json)
agent_identity() { # the agent's own projected token, no ONOS credential anywhere in its pod
  python3 - "$DS_JSON" <<'PY'
import json, sys
spec = json.loads(sys.argv[1])["spec"]["template"]["spec"]
vols = {v["name"]: v for v in spec["volumes"]}
tok = vols["agent-token"]["projected"]["sources"][0]["serviceAccountToken"]
print("token:", tok)
assert tok["audience"] == "srv6int.org/agent" and tok["path"] == "token", tok
assert vols["onos-ca"]["configMap"].get("optional") is False, vols["onos-ca"]
c = spec["containers"][0]
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
assert mounts["agent-token"] == "/var/run/secrets/srv6int" and mounts["onos-ca"] == "/etc/srv6int-ca", mounts
refs = [e for e in c.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})] + [v for v in spec["volumes"] if "secret" in v]
assert not refs, "an ONOS credential is still in the pod: %s" % refs
PY
}
check "the agent's identity is its projected token (audience srv6int.org/agent), no ONOS credential in its pod" agent_identity
check "ConfigMap srv6int-onos-ca holds the CA the sequence made" test "$(kubectl -n srv6int get cm srv6int-onos-ca \
  -o jsonpath='{.data.ca\.crt}')" = "$(cat "$WORK/run/srv6int-install/onos-ca.crt")"
check "the agents' escalationUrl is HTTPS on the Service the sequence created, with token and CA files" sh -c \
  "kubectl -n srv6int get cm srv6int-node-agent -o jsonpath='{.data.agent\.json}' | python3 -c 'import json,sys
c = json.load(sys.stdin); assert c[\"escalationUrl\"].startswith(\"https://onos.srv6int.svc:8443/\"), c
assert c[\"tokenFile\"] == \"/var/run/secrets/srv6int/token\" and c[\"caFile\"] == \"/etc/srv6int-ca/ca.crt\", c
assert c[\"metricsAddress\"] == \"\${POD_IP}:9464\", c' \
   && kubectl -n srv6int get svc onos -o jsonpath='{.spec.ports[0].port}' | grep -qx 8443"
onos_cert_ok() { # the certificate the sequence made for ONOS is what the agents check it against
  openssl verify -CAfile "$WORK/run/srv6int-install/onos-ca.crt" "$WORK/run/srv6int-install/onos.crt" &&
  openssl x509 -in "$WORK/run/srv6int-install/onos.crt" -noout -ext subjectAltName | grep -q 'DNS:onos.srv6int.svc,'
}
check "ONOS's certificate is signed by that CA and names onos.srv6int.svc" onos_cert_ok
check "the bridge's token may create TokenReviews (the agents' tokens) and nothing more of authentication" sh -c \
  "kubectl auth can-i create tokenreviews.authentication.k8s.io --as=system:serviceaccount:srv6int-sfc:srv6int-k8s-bridge | grep -qx yes \
   && kubectl auth can-i create tokenrequests.authentication.k8s.io --as=system:serviceaccount:srv6int-sfc:srv6int-k8s-bridge | grep -qx no"
check "EndpointSlice of Service onos lists every ONOS instance (3)" test "$(kubectl -n srv6int get endpointslice \
  -l kubernetes.io/service-name=onos -o jsonpath='{range .items[*].endpoints[*]}{.addresses[0]}{"\n"}{end}' | wc -l)" -eq 3
check "the bridge's token, CA and API server files for ONOS are written" test -s "$OUT/k8s-token" -a -s "$OUT/k8s-ca.crt" -a -s "$OUT/k8s-api-server"
check "the credential files are readable by their owner only" sh -c \
  "! find '$OUT/k8s-token' '$OUT/srv6int-agents.kubeconfig' -perm /go+rwx | grep ."

# A replica as the bridge makes it (Fabric8VnfReplicaManager.statefulSet: one container, requests
# and limits, no token, pinned by hostname, and ReplicaSecurity's context for a type without NET_RAW/NET_ADMIN), created with the bridge's
# token the sequence wrote: admitted by srv6int-sfc's enforced restricted level without a
# warning, its pod Running.
cat >"$WORK/replica.yaml" <<'YML'
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: sfc-1-vnf0-r1
  namespace: srv6int-sfc
  labels: {app.kubernetes.io/managed-by: srv6int-k8s-bridge, srv6int.org/chain: "1", srv6int.org/vnf: "0", srv6int.org/replica: "1", srv6int.org/vnf-type: snort}
spec:
  replicas: 1
  podManagementPolicy: Parallel
  selector:
    matchLabels: {app.kubernetes.io/managed-by: srv6int-k8s-bridge, srv6int.org/chain: "1", srv6int.org/vnf: "0", srv6int.org/replica: "1"}
  template:
    metadata:
      labels: {app.kubernetes.io/managed-by: srv6int-k8s-bridge, srv6int.org/chain: "1", srv6int.org/vnf: "0", srv6int.org/replica: "1", srv6int.org/vnf-type: snort}
    spec:
      nodeSelector: {kubernetes.io/hostname: worker1}
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: 30
      securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
      containers:
        - name: vnf
          image: registry.local/snort:2.9
          securityContext: {allowPrivilegeEscalation: false, privileged: false, capabilities: {drop: [ALL]}}
          resources: {requests: {cpu: "1", memory: 1Gi}, limits: {cpu: "1", memory: 1Gi}}
YML
as_bridge() { kubectl --kubeconfig=/dev/null --server="$(cat "$OUT/k8s-api-server")" \
  --certificate-authority="$OUT/k8s-ca.crt" --token="$(cat "$OUT/k8s-token")" "$@"; }
replica_created() {
  local out; out=$(as_bridge create -f "$WORK/replica.yaml" 2>&1); echo "$out"
  grep -q created <<<"$out" && ! grep -q 'would violate PodSecurity' <<<"$out"
}
check "the bridge's token creates a replica StatefulSet (restricted, no warning)" replica_created
replica_running() {
  for _ in $(seq 1 60); do
    [ "$(as_bridge -n srv6int-sfc get pod sfc-1-vnf0-r1-0 -o jsonpath='{.status.phase}' 2>/dev/null)" = Running ] && return 0
    sleep 1
  done
  as_bridge -n srv6int-sfc get pods -o wide; kubectl -n srv6int-sfc get events | tail -n 5; return 1
}
check "its pod passes restricted admission and runs (KWOK)" replica_running

# --- Prometheus with the documented scrape config, against this API server
# Upstream Prometheus: Debian's is built without kubernetes_sd_configs (tools/k8s-testenv/build-prometheus).
if ! PROM_BIN=$("$TESTENV/build-prometheus"); then
  echo "35-install: could not build Prometheus"; failed=$((failed + 1)); finish
fi
python3 - "$ROOT/docs/metrics.md" "$OUT/srv6int-agents.kubeconfig" "$WORK/run/srv6int-install/onos-metrics-password" \
  >"$WORK/prometheus.yml" <<'PY'
import copy, re, sys, yaml
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```yaml prometheus-scrape\n(.*?)^```$", text, re.S | re.M)
if len(blocks) != 1:
    sys.exit("docs/metrics.md: expected one ```yaml prometheus-scrape block, found %d" % len(blocks))
cfg = yaml.safe_load(blocks[0])
jobs = {j["job_name"]: j for j in cfg["scrape_configs"]}
for sd in jobs["srv6int-agent"]["kubernetes_sd_configs"]:
    sd["kubeconfig_file"] = sys.argv[2]          # the documented path, /etc/prometheus/..., pointed here
if "basic_auth" in jobs.get("srv6int-app", {}):
    jobs["srv6int-app"]["basic_auth"]["password_file"] = sys.argv[3]
old = copy.deepcopy(jobs["srv6int-agent"])       # the rule docs/metrics.md had before: label "app"
old["job_name"] = "srv6int-agent-old-rule"
for r in old["relabel_configs"]:
    r["source_labels"] = ["__meta_kubernetes_pod_label_app" if l == "__meta_kubernetes_pod_label_app_kubernetes_io_name"
                          else l for l in r.get("source_labels", [])]
cfg["scrape_configs"].append(old)
cfg["global"] = {"scrape_interval": "2s", "evaluation_interval": "2s"}
print(yaml.safe_dump(cfg, sort_keys=False))
PY
check "docs/metrics.md's scrape config passes promtool check config" "$PROM_BIN/promtool" check config "$WORK/prometheus.yml"
PROM_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$PROM_BIN/prometheus" --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prometheus.log" 2>&1 &
PROM_PID=$!
targets() { # job -> "node address" per active target
  python3 - "http://127.0.0.1:$PROM_PORT" "$1" <<'PY'
import json, sys, urllib.request
try:
    d = json.load(urllib.request.urlopen(sys.argv[1] + "/api/v1/targets?state=active", timeout=5))
except Exception:
    sys.exit(0)
for t in d["data"]["activeTargets"]:
    if t["labels"].get("job") == sys.argv[2]:
        print(t["labels"].get("node", "-"), t["labels"].get("instance"), t["discoveredLabels"].get("__meta_kubernetes_pod_name"))
PY
}
for _ in $(seq 1 60); do [ "$(targets srv6int-agent | wc -l)" -ge 2 ] && break; sleep 1; done
targets srv6int-agent | sed 's/^/     target srv6int-agent: /'
agent_targets_ok() {
  local want got
  want=$(kubectl -n srv6int get pods -l app.kubernetes.io/name=srv6int-node-agent -o jsonpath='{range .items[*]}{.spec.nodeName} {.status.podIP}:9464{"\n"}{end}' | sort)
  got=$(targets srv6int-agent | cut -d' ' -f1,2 | sort)
  echo "want:"; echo "$want"; echo "got:"; echo "$got"
  [ -n "$want" ] && [ "$want" = "$got" ]
}
check "every agent pod is a target of job srv6int-agent, labelled with its node, at podIP:9464" agent_targets_ok
check "the old rule (label app) keeps no agent target" test "$(targets srv6int-agent-old-rule | wc -l)" -eq 0
check "Prometheus' service discovery ran without errors" sh -c "! grep -i 'level=error.*discovery' '$WORK/prometheus.log'"
[ "$failed" -gt 0 ] && { echo "--- prometheus"; tail -n 15 "$WORK/prometheus.log"; }
kill "$PROM_PID" 2>/dev/null; wait "$PROM_PID" 2>/dev/null; PROM_PID=

# --- the removal block, then the kustomize route (base + the example overlay) on the cleared cluster
run_blocks() { # log name, tag[:step]...
  local log=$WORK/$1.log; shift
  extract "$@" >"$WORK/blocks.sh"
  (cd "$WORK/run" && timeout 900 bash "$WORK/blocks.sh") >"$log" 2>&1
  local rc=$?
  sed 's/^/     | /' "$log" | grep -v '^     | *$' | tail -n 30
  return $rc
}
check "docs/install.md's removal block ran as written" run_blocks uninstall install-k8s:k8s-settings uninstall-k8s
nothing_left() {
  kubectl get ns srv6int srv6int-sfc 2>&1 | grep -v NotFound
  kubectl get clusterrole,clusterrolebinding -o name | grep -E 'srv6int-(node-agent|k8s-bridge)'
  kubectl get nodes -l srv6int.org/vnf-worker -o name | grep .
  return 0
}
removal_clean() { local out; out=$(nothing_left); echo "$out"; [ -z "$out" ]; }
check "the removal left no namespace, cluster role or binding, node label" removal_clean
check "docs/install.md's kustomize block ran as written" run_blocks kustomize install-k8s:k8s-settings install-kustomize
check "the overlay's Namespaces keep their Pod Security levels" test "$(label srv6int enforce)/$(label srv6int-sfc enforce)" = privileged/restricted
check "one agent pod Running on every labelled worker (overlay)" agents_running
check "the agent runs the overlay's image, by the digest of step 5's build" test "$(kubectl -n srv6int get ds srv6int-node-agent \
  -o jsonpath='{.spec.template.spec.containers[0].image}')" = "registry.example.org/srv6int/node-agent@$AGENT_DIGEST"
ca_ok() {
  local name; name=$(kubectl -n srv6int get ds srv6int-node-agent \
    -o jsonpath='{.spec.template.spec.volumes[?(@.name=="onos-ca")].configMap.name}')
  echo "configMap $name"
  case $name in srv6int-onos-ca-?*) ;; *) return 1 ;; esac
  test "$(kubectl -n srv6int get cm "$name" -o jsonpath='{.data.ca\.crt}')" = "$(cat "$WORK/run/srv6int-install/onos-ca.crt")"
}
check "the DaemonSet names the generated (hashed) ConfigMap, which holds ONOS's CA" ca_ok
check "the overlay's agent.json is the agents' (iface ens2f1)" sh -c \
  "kubectl -n srv6int get cm srv6int-node-agent -o jsonpath='{.data.agent\.json}' | grep -q '\"iface\": \"ens2f1\"'"
check "EndpointSlice of Service onos lists the overlay's ONOS instances" test "$(kubectl -n srv6int get endpointslice \
  -l kubernetes.io/service-name=onos -o jsonpath='{range .items[*].endpoints[*]}{.addresses[0]} {end}')" = "198.51.100.21 198.51.100.22 198.51.100.23 "
finish
