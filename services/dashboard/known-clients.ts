import { clientAddressKey } from '../../domain/client-address-key';
import { hashDashboardToken, newDashboardToken } from '../../domain/dashboard-tokens';
import type { Database, Prisma } from '../../prisma/client';
import { deleteInBatches } from '../batched-delete';
import { dashboardSettings } from './config';

/** What a sign-in request shows of its client: the `bp_device` cookie's token and the address. */
export interface PresentedClient {
  deviceToken?: string;
  ip?: string;
}

interface ClientKeys {
  device?: string;
  address?: string;
}

/** The rows a client would be known by; the device token is kept as its SHA-256 only. */
function clientKeysOf(client: PresentedClient): ClientKeys {
  return {
    device: client.deviceToken ? `device:${Buffer.from(hashDashboardToken(client.deviceToken)).toString('hex')}` : undefined,
    address: client.ip ? `address:${clientAddressKey(client.ip)}` : undefined,
  };
}

/** A client some users of an e-mail signed in from: the key it is known by, and those users. */
export interface KnownClient {
  clientKey: string;
  userIds: string[];
}

/**
 * The client, if a user of `email` signed in from it within the known-client period: its device
 * when the browser presents a device token of such a user (that survives a change of address),
 * else its address; with the users it is known for. An e-mail is unique per account, not across
 * accounts, so a client is known for the users who signed in from it, never for the others of
 * the same e-mail. A made-up token, or one of another e-mail's user, matches no row.
 */
export async function knownClientOf(db: Database, email: string, client: PresentedClient, now: Date): Promise<KnownClient | undefined> {
  const keys = clientKeysOf(client);
  const candidates = [keys.device, keys.address].filter((key): key is string => key !== undefined);
  if (candidates.length === 0) return undefined;
  const since = new Date(now.getTime() - dashboardSettings().knownClientMs);
  const rows = await db.dashboardKnownClient.findMany({
    where: { user: { is: { email } }, clientKey: { in: candidates }, lastSignedInAt: { gt: since } },
    select: { clientKey: true, userId: true },
  });
  const clientKey = candidates.find((key) => rows.some((row) => row.clientKey === key));
  return clientKey ? { clientKey, userIds: rows.filter((row) => row.clientKey === clientKey).map((row) => row.userId) } : undefined;
}

/**
 * After a sign-in: the client's address and device are known (again) from now. The device keeps
 * the token it presented if that was one of this user's; otherwise it gets a new one, returned
 * for the cookie.
 */
export async function rememberClient(
  tx: Prisma.TransactionClient,
  userId: string,
  client: PresentedClient,
  knownAs: string | undefined,
  now: Date,
): Promise<string> {
  const presented = clientKeysOf(client);
  const keepsToken = client.deviceToken !== undefined && knownAs === presented.device;
  const deviceToken = keepsToken ? client.deviceToken! : newDashboardToken();
  const keys = clientKeysOf({ deviceToken, ip: client.ip });
  for (const clientKey of [keys.device!, keys.address].filter((key): key is string => key !== undefined)) {
    await tx.dashboardKnownClient.upsert({
      where: { userId_clientKey: { userId, clientKey } },
      create: { userId, clientKey, lastSignedInAt: now },
      update: { lastSignedInAt: now },
    });
  }
  return deviceToken;
}

/** Known clients nobody signed in from for the known-client period, in batches (maintenance). */
export function purgeForgottenClients(deps: { db: Database; now: () => Date }, progress: (done: { deleted: number }) => void): Promise<{ deleted: number }> {
  const cutoff = new Date(deps.now().getTime() - dashboardSettings().knownClientMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM dashboard_known_clients
      WHERE (user_id, client_key) IN (
        SELECT user_id, client_key FROM dashboard_known_clients WHERE last_signed_in_at <= ${cutoff} LIMIT ${limit}
      )`,
    progress,
  );
}
