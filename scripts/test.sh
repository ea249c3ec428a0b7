#!/usr/bin/env bash
# `npm test`: everything the tests need comes from the registries and starts here —
# packages, the Prisma client, the type check, then jest, whose global setup starts an
# embedded PostgreSQL and resolves Temporal's time-skipping test server from Maven Central.
# Go tools (the Temporal CLI, the versitygw S3 gateway, stripe-mock) are built from the Go module
# proxy; localstripe is installed from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
echo "[test] type check"
npx tsc -p .
echo "[test] Temporal CLI for the platform tests"
node --import tsx scripts/temporal/ensure-cli.ts
echo "[test] S3 gateway for the file storage tests"
node --import tsx scripts/s3/ensure-versitygw.ts
echo "[test] Stripe emulators for the payment provider tests (stripe-mock, localstripe)"
node --import tsx scripts/stripe/ensure-stripe-mock.ts
node --import tsx scripts/stripe/ensure-localstripe.ts
echo "[test] Temporal server, SQL tool and Web UI for the PostgreSQL-backed cluster"
node --import tsx scripts/temporal/ensure-cluster-server.ts
echo "[test] Chromium for the browser tests"
bash scripts/browser/ensure-chromium.sh
echo "[test] jest"
# Stale results must not be recapped as this run's.
rm -rf test-artifacts/jest test-artifacts/schemathesis test-artifacts/cluster
mkdir -p test-artifacts/jest
# A young generation of 64 MB semi-spaces instead of 16: the test processes allocate fast and keep
# little: with fewer scavenges, 20 mid-sized files took 3.6–24 % less CPU in three pairs (docs/benchmarks.md,
# "The test run's CPU"). It reaches every node process jest starts, the platforms the tests spawn too.
NODE_OPTIONS="--max-semi-space-size=64${NODE_OPTIONS:+ $NODE_OPTIONS}" npx jest --json --outputFile=test-artifacts/jest/results.json "$@"
# The whole API against its OpenAPI document (docs/testing.md, "API contract checks"); only for a full run.
if [ "$#" -eq 0 ]; then
  echo "[test] schemathesis"
  npm run test:schemathesis
fi
node --import tsx scripts/ci/recap.ts
