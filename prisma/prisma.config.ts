import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  // Optional so that `prisma generate` works without a database; migrate commands need it.
  datasource: { url: process.env.DATABASE_URL },
});
