#!/usr/bin/env bash
# Brings a checkout to a runnable state from the registries alone: npm packages (when the
# lockfile changed since the last install) and the generated Prisma client. Idempotent and
# fast when nothing changed, so `npm start` and `npm test` both begin with it.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.install-stamp
lock_hash=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  # `npm install`, not `npm ci`: this npm writes lockfiles without the optional per-platform
  # packages, which `npm ci` then calls out of sync. The lockfile still pins every version.
  echo "[install] npm install"
  npm install --no-audit --no-fund --loglevel=error
  cat package.json package-lock.json | sha256sum | cut -d' ' -f1 > "$stamp"
fi

schema_hash=$(cat prisma/schema.prisma package-lock.json | sha256sum | cut -d' ' -f1)
if [ ! -f generated/.schema-stamp ] || [ "$(cat generated/.schema-stamp)" != "$schema_hash" ]; then
  echo "[install] prisma generate"
  npx tsx scripts/db/generate.ts
  echo "$schema_hash" > generated/.schema-stamp
fi

# The dashboard's sources, the domain modules and typed client it imports and the lockfile decide its build.
dashboard_hash=$( (find dashboard domain client -path dashboard/dist -prune -o -type f -print | LC_ALL=C sort | xargs cat; cat package-lock.json) | sha256sum | cut -d' ' -f1)
if [ ! -f dashboard/dist/index.html ] || [ ! -f dashboard/dist/.build-stamp ] || [ "$(cat dashboard/dist/.build-stamp)" != "$dashboard_hash" ]; then
  echo "[install] dashboard build"
  npm run --silent dashboard:build
  echo "$dashboard_hash" > dashboard/dist/.build-stamp
fi
