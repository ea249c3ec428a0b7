import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { antifraudEnabled } from './repository';

/**
 * Sections 4.8 and 4.9: an account with antifraud disabled gets 422 INCOMPATIBLE_STATUS. We
 * refuse every antifraud-lists operation, not only the two lists the spec names: screening
 * ignores the lists then, and editing them would suggest a protection that is not in force.
 */
export async function assertAntifraudEnabled(db: Prisma.TransactionClient, accountId: string): Promise<void> {
  if (!(await antifraudEnabled(db, accountId))) {
    throw new ApiError('INCOMPATIBLE_STATUS', 'Antifraud is disabled for this account; ask the operator to enable it.', {
      antifraud_enabled: false,
    });
  }
}
