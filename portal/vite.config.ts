import { defineConfig } from 'vite';
import { firstPageBudget } from '../scripts/vite/first-page-budget';

/** Issue 43's budget for the JavaScript the first page loads (the entry chunk and its static imports). */
const FIRST_PAGE_BUDGET_BYTES = 150 * 1024;

/**
 * The customer portal is served by the API under /portal/ (api/http/portal-static.ts), so every
 * asset URL carries that base; the only other origin a page may load from is Stripe.js's.
 */
export default defineConfig({
  root: __dirname,
  base: '/portal/',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [firstPageBudget(FIRST_PAGE_BUDGET_BYTES)],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
});
