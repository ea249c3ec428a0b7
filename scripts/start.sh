#!/usr/bin/env bash
# `npm start`: install what is missing, then hand over to the platform launcher. `exec` makes
# the launcher the process that receives Ctrl-C, so it can stop everything in order.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec node --import tsx scripts/start.ts
