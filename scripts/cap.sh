#!/bin/sh
# Runs the Capacitor CLI (which needs Node 22 or newer) from apps/web, under the machine's Node when
# it is new enough, else under the Node 24 that scripts/node24.sh provides, so that the npm scripts
# work on Node 20 too. Arguments go to the CLI: `sh scripts/cap.sh sync`.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
node_bin=node
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  node_bin="$(sh "$root/scripts/node24.sh")/bin/node"
fi
cli="$root/node_modules/@capacitor/cli/bin/capacitor"
cd "$root/apps/web"
exec "$node_bin" "$cli" "$@"
