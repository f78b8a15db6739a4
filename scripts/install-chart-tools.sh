#!/usr/bin/env bash
# install-chart-tools.sh installs the tools the Helm chart's check uses
# (deploy/helmcheck): Helm and kubeconform, built from their Go modules at
# pinned versions into .tools/bin with `go install` (the Go module proxy is
# the only source needed; nothing prebuilt is downloaded).
#
# Idempotent: a binary that records the pinned module version (and, for
# helm, the flags below) is kept. The first run builds Helm from source (a few minutes on two cores);
# later runs take well under a second, and work offline once the module
# cache holds the sources. Any failure stops the script with a non-zero
# exit status.
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-v3.22.0}"
KUBECONFORM_VERSION="${KUBECONFORM_VERSION:-v0.8.0}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/.tools/bin"

die() { echo "install-chart-tools: $*" >&2; exit 1; }

command -v go >/dev/null || die "go is required"

# built_version prints the main module version recorded in a Go binary.
built_version() { [ -x "$1" ] && go version -m "$1" 2>/dev/null | awk '$1 == "mod" { print $3; exit }'; }

# build_info prints what a Go binary records of its build (its -ldflags among them).
build_info() { [ -x "$1" ] && go version -m "$1" 2>/dev/null; }

install_tool() { # name package module-version [ldflags]
  local name=$1 pkg=$2 version=$3 ldflags=${4:-}
  if [ "$(built_version "$bin/$name")" = "$version" ] && [[ "$(build_info "$bin/$name")" == *"$ldflags"* ]]; then
    echo "install-chart-tools: $name $version already in $bin"
    return
  fi
  echo "install-chart-tools: building $name $version into $bin"
  mkdir -p "$bin"
  # Outside the project's module, so its go.mod is neither read nor changed.
  (cd "$bin" && GOBIN="$bin" GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0 go install -ldflags "$ldflags" "$pkg@$version") \
    || die "go install $pkg@$version failed"
  [ "$(built_version "$bin/$name")" = "$version" ] || die "$bin/$name does not report $version"
}

# Helm's own release build stamps its version and the Kubernetes version of
# its client libraries (the default of --kube-version and of the
# capabilities charts see offline); without them helm says v3.22 and
# Kubernetes v1.20. The same -X flags as Helm's Makefile, from its go.mod.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
helm_gomod=$(cd "$tmp" && GOFLAGS=-mod=mod GOWORK=off go mod download -json "helm.sh/helm/v3@$HELM_VERSION" |
  sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
k8s_minor=$(awk '$1 == "k8s.io/client-go" { split($2, v, "."); print v[2] }' "$helm_gomod")
[ -n "$k8s_minor" ] || die "cannot read k8s.io/client-go's version from $helm_gomod"
helm_ldflags="-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
for p in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  helm_ldflags+=" -X $p.k8sVersionMajor=1 -X $p.k8sVersionMinor=$k8s_minor"
done

install_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION" "$helm_ldflags"
install_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
[ "$("$bin/helm" version --template '{{ .Version }}')" = "$HELM_VERSION" ] || die "helm does not start or does not say $HELM_VERSION"
echo "install-chart-tools: ready (helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION)"
