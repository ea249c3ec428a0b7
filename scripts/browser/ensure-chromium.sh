#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core with executablePath): no browser is
# downloaded from outside the package registries. Installs it with apt when it is missing.
set -euo pipefail
if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then exit 0; fi
echo "[browser] installing Debian's chromium package (about two minutes the first time)"
sudo_cmd=""
if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
