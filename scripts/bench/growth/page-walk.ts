import { percentile } from '../latency';

/** A list operation and its filters, walked by cursor as a dashboard pages through them. */
export interface Walk {
  name: string;
  operation: string;
  filters: Record<string, unknown>;
}

export interface WalkTiming {
  name: string;
  /** Latencies of repeats of the first page, ms. */
  first: number[];
  /** Latencies of repeats of page `page`, reached by following next_page_token, ms; empty when the list ends before it. */
  deep: number[];
  page: number;
  /** Shared buffers per request of the first page's and page `page`'s repeats, by `blocks`. */
  firstBlocks: number;
  deepBlocks: number;
}

type Post = (operation: string, body: unknown) => Promise<any>;

/**
 * `repeats` requests of the first page, then the walk to page `page` by next_page_token (each
 * page asked once), then `repeats` requests of that page with the same token: the cost of a page
 * there, as keyset pagination promises it, should not depend on how deep it is. `blocks` reads
 * the database's shared buffers so far (statements only), before and after each set of repeats.
 */
export async function walkPages(post: Post, walk: Walk, page: number, repeats: number, blocks: () => Promise<number>): Promise<WalkTiming> {
  const ask = (token?: string) =>
    post(walk.operation, { filters: walk.filters, pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) } });
  const timed = async (token?: string) => {
    const latencies: number[] = [];
    const before = await blocks();
    for (let n = 0; n < repeats; n++) {
      const started = performance.now();
      await ask(token);
      latencies.push(performance.now() - started);
    }
    return { latencies: latencies.sort((a, b) => a - b), blocks: ((await blocks()) - before) / repeats };
  };
  const first = await timed();
  let token: string | undefined;
  for (let n = 1; n < page; n++) {
    const answer = await ask(token);
    token = answer.pagination.next_page_token;
    if (!token) return { name: walk.name, first: first.latencies, firstBlocks: first.blocks, deep: [], deepBlocks: NaN, page };
  }
  const deep = await timed(token);
  return { name: walk.name, first: first.latencies, firstBlocks: first.blocks, deep: deep.latencies, deepBlocks: deep.blocks, page };
}

export const p50 = (sorted: number[]) => percentile(sorted, 50);
