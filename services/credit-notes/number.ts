import type { Prisma } from '../../prisma/client';

/**
 * The account's next credit note number, 1, 2, 3… without gaps. The upsert holds the sequence
 * row's lock until the caller commits: a concurrent creation waits and then takes the next
 * number, and one that rolls back gives its number back. Take it last in the transaction, so
 * the lock is held as briefly as possible and always after the invoice's lock.
 */
export async function nextCreditNoteNumber(tx: Prisma.TransactionClient, accountId: string): Promise<number> {
  const [row] = await tx.$queryRaw<Array<{ lastNumber: number }>>`
    INSERT INTO credit_note_sequences AS s (account_id, last_number) VALUES (${accountId}, 1)
    ON CONFLICT (account_id) DO UPDATE SET last_number = s.last_number + 1
    RETURNING s.last_number AS "lastNumber"`;
  return row!.lastNumber;
}
