import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../common/pagination';

export const portalListRequest = z.strictObject({
  cursor: z.string().max(512).optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
