import path from 'node:path';

// Mirrors prisma/prisma.config.ts, which the Prisma CLI reads. Loading that file here would pull in
// Prisma's config loader (about a second) on every migration call.
export const projectRoot = path.resolve(__dirname, '../..');
export const schemaPath = path.join(projectRoot, 'prisma', 'schema.prisma');
export const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');
