import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite' with { 'resolution-mode': 'import' };

/**
 * Fails the build when the JavaScript the first page loads (every entry chunk and its static
 * imports, gzipped) is over `budgetBytes`, and says the figure either way: the dashboard's
 * budget is issue 19's, the portal's issue 43's.
 */
export function firstPageBudget(budgetBytes: number): Plugin {
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
      const line = `first page JavaScript: ${(gzipBytes / 1024).toFixed(1)} KiB gzip (budget ${budgetBytes / 1024} KiB)`;
      if (gzipBytes > budgetBytes) this.error(line);
      this.info(line);
    },
  };
}
