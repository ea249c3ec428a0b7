import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../common/pagination';

export const portalListRequest = z.strictObject({
  /** The previous answer's `next_cursor`; null (the last page's) reads as the first page's absence of one. */
  cursor: z.string().max(512).nullable().optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
