import { Prisma } from '../generated/prisma/client';

/**
 * Runs `transaction` again when PostgreSQL aborted it as a deadlock or a serialization failure
 * (Prisma's P2034): the whole transaction rolled back, so running it again repeats nothing. Seen
 * when webhooks/patch deactivated an endpoint (its row lock, then its pending deliveries) while the
 * webhook sender recorded attempts for it (the deliveries, then the endpoint): a 500 before.
 */
export async function retryOnWriteConflict<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2034') throw error;
    }
  }
}
