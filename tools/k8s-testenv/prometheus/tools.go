// SPDX-License-Identifier: Apache-2.0

//go:build tools

// Package tools pins the upstream Prometheus built by ../build-prometheus: Debian's
// package is built without the Kubernetes service discovery (kubernetes_sd_configs),
// which tests/ci.d/35-install.sh runs against the test control plane.
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
