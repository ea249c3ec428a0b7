#!/usr/bin/env bash
# `npm run build`: what production runs (docs/deployment.md, "Build"). After scripts/install.sh
# (packages, the generated Prisma client, which is TypeScript and is compiled with the rest, and
# the dashboard and portal the API serves), tsc compiles the API, the worker and everything they
# import to JavaScript in dist/, and the workflows are bundled once into dist/workflow-bundle.js,
# which the compiled worker loads instead of running webpack at every start.
# `npm run start:api` and `npm run start:worker` then run dist/ with plain node.
# An argument names another output folder inside the checkout (node_modules is found from it) and
# builds there from the checkout as installed, without running the install: test/build/build.test.ts
# builds into .data/ while other test files read dashboard/dist, which the install may rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
if [ "$#" -eq 0 ]; then bash scripts/install.sh; fi
# From empty, so that no module of a file since deleted or moved lingers in the build.
rm -rf "$out"
echo "[build] tsc -p tsconfig.build.json --outDir $out"
npx tsc -p tsconfig.build.json --outDir "$out"
echo "[build] workflow bundle"
# The compiled bundler over the compiled workflows: the bundle holds exactly what the build holds.
node "$out/worker/workflow-bundle.js" "$out/workflow-bundle.js"
echo "[build] $out/ ready (dist/: npm run start:api, npm run start:worker)"
