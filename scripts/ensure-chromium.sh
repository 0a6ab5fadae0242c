#!/bin/sh
# The browser tests drive Debian's Chromium headless shell, and the web benchmark its full Chromium
# (playwright's own downloads need the internet).
set -e
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then
  exit 0
fi
echo "Chromium is missing: installing Debian's packages" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-headless-shell
