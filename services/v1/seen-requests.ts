import { createHash } from 'node:crypto';
import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';

/**
 * How long a merchant's request body, once accepted for processing, is refused when it comes
 * again (docs/subscription-restore.md, "Replays"). The v1 wire format has no timestamp or nonce,
 * so the bytes themselves are what is remembered.
 */
export const V1_REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

function bodyHash(body: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(body).digest());
}

/**
 * Records the body as seen for the merchant at `now`; false when the same bytes were seen less
 * than the window ago. One committed statement: a concurrent identical request waits on the
 * primary key for this insert, then finds it and is refused. A row past the window is taken over.
 */
export async function claimV1Request(db: Database, accountId: string, body: Buffer, now: Date): Promise<boolean> {
  const cutoff = new Date(now.getTime() - V1_REPLAY_WINDOW_MS);
  const claimed = await db.$queryRaw<{ seen_at: Date }[]>`
    INSERT INTO v1_restore_requests (account_id, body_hash, seen_at) VALUES (${accountId}, ${bodyHash(body)}, ${now})
    ON CONFLICT (account_id, body_hash) DO UPDATE SET seen_at = EXCLUDED.seen_at
    WHERE v1_restore_requests.seen_at <= ${cutoff}
    RETURNING seen_at`;
  return claimed.length === 1;
}

/** Forgets a claim made at `seenAt` for a request that was refused before it was processed. */
export async function releaseV1Request(db: Database, accountId: string, body: Buffer, seenAt: Date): Promise<void> {
  await db.v1RestoreRequest.deleteMany({ where: { accountId, bodyHash: bodyHash(body), seenAt } });
}

export function replayedRequestError(): ApiError {
  return new ApiError(
    'REQUEST_REPLAYED',
    'This request was already received: the same body from this merchant is accepted once in 24 hours. To restore again, send different bytes (for example the fields in another order), signed.',
  );
}
