// SPDX-License-Identifier: Apache-2.0

//go:build tools

// Package tools pins the kwok command built by ../build.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
