import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** Issue 43's budget for the JavaScript the first page loads (the entry chunk and its static imports). */
const FIRST_PAGE_BUDGET_BYTES = 150 * 1024;

function firstPageBudget(): Plugin {
  return {
    name: 'first-page-budget',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        chunks.get(fileName)?.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const gzipBytes = [...seen].reduce((sum, fileName) => sum + gzipSync(chunks.get(fileName)!.code).length, 0);
      const line = `first page JavaScript: ${(gzipBytes / 1024).toFixed(1)} KiB gzip (budget ${FIRST_PAGE_BUDGET_BYTES / 1024} KiB)`;
      if (gzipBytes > FIRST_PAGE_BUDGET_BYTES) this.error(line);
      this.info(line);
    },
  };
}

/**
 * The customer portal is served by the API under /portal/ (api/http/portal-static.ts), so every
 * asset URL carries that base; the only other origin a page may load from is Stripe.js's.
 */
export default defineConfig({
  root: __dirname,
  base: '/portal/',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [firstPageBudget()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
});
