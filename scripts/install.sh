#!/usr/bin/env bash
# Brings a checkout to a runnable state from the registries alone: npm packages (when the
# lockfile changed since the last install) and the generated Prisma client. Idempotent and
# fast when nothing changed, so `npm start` and `npm test` both begin with it.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.install-stamp
lock_hash=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  # A fresh clone (CI's case) copies node_modules from a cache outside the checkout, the tools
  # cache of scripts/tools/tool-cache.ts (same root, same override), instead of spending about a
  # minute in npm. An entry is what `npm install` made from this lockfile and the fields of
  # package.json that npm installs from, with this Node on this platform, and is named by a hash
  # of exactly those (not of the scripts or the jest settings, which change more often).
  tools_cache=${BILLING_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/billing-platform/tools}
  key=$(node -e '
    const { createHash } = require("node:crypto");
    const fs = require("node:fs");
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const installs = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides", "allowScripts"].map((field) => pkg[field]);
    const key = [fs.readFileSync("package-lock.json", "utf8"), JSON.stringify(installs), process.version, process.platform, process.arch];
    console.log(createHash("sha256").update(key.join("\n")).digest("hex").slice(0, 16));
  ')
  cached="$tools_cache/node-modules/$key"
  # A checkout that already has node_modules keeps it: npm brings it up to date faster than a copy.
  if [ ! -d node_modules ] && [ -f "$cached/complete" ]; then
    echo "[install] node_modules from $cached"
    rm -rf node_modules.partial
    cp -a "$cached/node_modules" node_modules.partial
    mv node_modules.partial node_modules
    echo "$lock_hash" > "$stamp"
  else
    # `npm install`, not `npm ci`: this npm writes lockfiles without the optional per-platform
    # packages, which `npm ci` then calls out of sync. The lockfile still pins every version.
    echo "[install] npm install"
    npm install --no-audit --no-fund --loglevel=error
    echo "$lock_hash" > "$stamp"
    # Written beside its final name and renamed, so a run stopped halfway leaves no entry that
    # looks complete; the older entries of other lockfiles go (each is about 900 MB).
    partial="$cached.partial-$$"
    rm -rf "$partial" && mkdir -p "$partial"
    if cp -a node_modules "$partial/node_modules" && touch "$partial/complete"; then
      find "$tools_cache/node-modules" -mindepth 1 -maxdepth 1 ! -name "$key" ! -name '*.partial-*' -exec rm -rf {} +
      mv -T "$partial" "$cached" 2>/dev/null || rm -rf "$partial"
    else
      rm -rf "$partial"
    fi
  fi
fi

schema_hash=$(cat prisma/schema.prisma package-lock.json | sha256sum | cut -d' ' -f1)
if [ ! -f generated/.schema-stamp ] || [ "$(cat generated/.schema-stamp)" != "$schema_hash" ]; then
  echo "[install] prisma generate"
  npx tsx scripts/db/generate.ts
  echo "$schema_hash" > generated/.schema-stamp
fi

# The dashboard's sources, the domain modules and typed client it imports and the lockfile decide its build.
dashboard_hash=$( (find dashboard domain client scripts/vite -path dashboard/dist -prune -o -type f -print | LC_ALL=C sort | xargs cat; cat package-lock.json) | sha256sum | cut -d' ' -f1)
if [ ! -f dashboard/dist/index.html ] || [ ! -f dashboard/dist/.build-stamp ] || [ "$(cat dashboard/dist/.build-stamp)" != "$dashboard_hash" ]; then
  echo "[install] dashboard build"
  npm run --silent dashboard:build
  echo "$dashboard_hash" > dashboard/dist/.build-stamp
fi

# The portal's likewise: its sources, the domain modules and typed client it imports, the lockfile.
portal_hash=$( (find portal domain client scripts/vite -path portal/dist -prune -o -type f -print | LC_ALL=C sort | xargs cat; cat package-lock.json) | sha256sum | cut -d' ' -f1)
if [ ! -f portal/dist/index.html ] || [ ! -f portal/dist/.build-stamp ] || [ "$(cat portal/dist/.build-stamp)" != "$portal_hash" ]; then
  echo "[install] portal build"
  npm run --silent portal:build
  echo "$portal_hash" > portal/dist/.build-stamp
fi
