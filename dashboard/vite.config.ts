import { defineConfig } from 'vite';
import { firstPageBudget } from '../scripts/vite/first-page-budget';

/** Issue 19's budget for the JavaScript the first page loads (the entry chunk and its static imports). */
const FIRST_PAGE_BUDGET_BYTES = 300 * 1024;

/**
 * The dashboard is served by the API under /dashboard/ (api/http/dashboard-static.ts), so every
 * asset URL carries that base and nothing is fetched from another origin.
 */
export default defineConfig({
  root: __dirname,
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [firstPageBudget(FIRST_PAGE_BUDGET_BYTES)],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    rolldownOptions: {
      // React Query marks its modules "use client" for server-component bundlers; meaningless in a browser-only app.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
