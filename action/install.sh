#!/usr/bin/env bash
# Installs weblate-snapshot from the action's own checkout: its package, packed and installed
# globally, as a user installs it. The one place to change when the package is built otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
tarball=$(npm pack --silent | tail -n 1)
npm install --global --no-audit --no-fund "./$tarball"
weblate-snapshot --version
