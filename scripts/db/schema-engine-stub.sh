#!/bin/sh
# Stands in for Prisma's native schema engine, which cannot be downloaded here. `prisma generate`
# only checks that PRISMA_SCHEMA_ENGINE_BINARY exists; anything that really runs it fails loudly.
echo "The native Prisma schema engine is not installed: use 'npm run db:migrate' (Wasm engine)." >&2
exit 1
