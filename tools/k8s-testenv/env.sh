# SPDX-License-Identifier: Apache-2.0
# Shared settings for build/start/stop (sourced, not run).
# Binaries and Go caches live outside the repository so only the first run builds.
K8S_TESTENV_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
K8S_CACHE=${SRV6INT_K8S_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/srv6int-k8s}
# The binary directory is keyed by the pinned module files: a version bump rebuilds.
K8S_BUILD_KEY=$(cat "$K8S_TESTENV_DIR/go.mod" "$K8S_TESTENV_DIR/go.sum" \
  "$K8S_TESTENV_DIR/kwok/go.mod" "$K8S_TESTENV_DIR/kwok/go.sum" 2>/dev/null | sha256sum | cut -c1-16)
K8S_BIN=${SRV6INT_K8S_BIN:-$K8S_CACHE/bin-$K8S_BUILD_KEY}
# Runtime state (certificates, etcd data, logs, PIDs, kubeconfigs).
K8S_RUN=${SRV6INT_K8S_RUN:-$K8S_CACHE/run}
K8S_APISERVER_PORT=${SRV6INT_K8S_APISERVER_PORT:-16443}
# The address kube-apiserver binds and every kubeconfig names: loopback unless a test needs it
# reachable from network namespaces it made (tools/cluster-faults: its bridge's address).
K8S_ADDRESS=${SRV6INT_K8S_ADDRESS:-127.0.0.1}
K8S_ETCD_PORT=${SRV6INT_K8S_ETCD_PORT:-12379}
K8S_ETCD_PEER_PORT=${SRV6INT_K8S_ETCD_PEER_PORT:-12380}
# Where kwok takes its stages from: config (kwok-stages.yaml via --config) or crd (the
# same stages as Stage objects on the API server, changeable while kwok runs; see start).
K8S_KWOK_STAGES=${SRV6INT_K8S_KWOK_STAGES:-config}
