import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { allActiveMetersOf, type MeterWithVersions } from './meter-definitions';
import { meterStampSql } from './meter-stamp';

/** An account's ACTIVE meters by event name, with the fingerprint they were read under (meter-stamp.ts). */
export interface AccountMeters {
  stamp: string;
  byEventName: ReadonlyMap<string, readonly MeterWithVersions[]>;
}

/** Enough for every account one API process serves at once; beyond it the oldest entry goes. */
const MAX_ACCOUNTS = 10_000;

const cached = new Map<string, AccountMeters>();

const readStamp = sqlStatement('usage.meter-stamp', `SELECT (${meterStampSql('$1')}) AS stamp`);

/**
 * The account's meters as this process last read them. Nothing here decides they are still
 * current: the ingestion statement compares their stamp with the database's, in the same
 * snapshot that stores the batch, and `reloadAccountMeters` is called when it differs.
 */
export async function accountMeters(db: Database | Prisma.TransactionClient, accountId: string): Promise<AccountMeters> {
  return cached.get(accountId) ?? reloadAccountMeters(db, accountId);
}

/**
 * Reads the stamp, then the meters. A change committed between the two leaves the entry with an
 * older stamp than its meters, which the next statement finds stale and reloads: harmless. The
 * other order could pair a new stamp with old meters, and a batch would be measured by them.
 */
export async function reloadAccountMeters(db: Database | Prisma.TransactionClient, accountId: string): Promise<AccountMeters> {
  const [{ stamp }] = (await readRows<{ stamp: string }>(db, readStamp, [accountId])) as [{ stamp: string }];
  const byEventName = new Map<string, MeterWithVersions[]>();
  for (const meter of await allActiveMetersOf(db, accountId)) {
    const named = byEventName.get(meter.eventName);
    if (named) named.push(meter);
    else byEventName.set(meter.eventName, [meter]);
  }
  const entry: AccountMeters = { stamp, byEventName };
  cached.delete(accountId);
  if (cached.size >= MAX_ACCOUNTS) cached.delete(cached.keys().next().value!);
  cached.set(accountId, entry);
  return entry;
}
