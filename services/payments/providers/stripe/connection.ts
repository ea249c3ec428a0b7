import type Stripe from 'stripe';
import { ApiError } from '../../../../domain/errors';
import { openSecret, sealSecret } from '../../../../domain/secret-box';
import {
  isLiveKey,
  isStripePublishableKey,
  isStripeSecretKey,
  isStripeWebhookSecret,
  lastFour,
  publishableKeyMatchesMode,
  stripeSecretPurpose,
} from '../../../../domain/stripe-credentials';
import { formatDateTime } from '../../../../domain/datetime';
import type { Database } from '../../../../prisma/client';
import { secretsKey } from '../../../secrets/secrets-key';
import { stripeClient } from './client';

/** An account's open Stripe connection: a client with its key, and the secret its webhooks are signed with. */
export interface StripeConnection {
  accountId: string;
  client: Stripe;
  webhookSecret: string;
  livemode: boolean;
}

/**
 * Opened connections are kept this long, so a charge does not read and unseal the credentials
 * each time; a rotation is in effect everywhere within it (docs/payments-stripe.md).
 */
const CACHE_MS = 5_000;
const cache = new Map<string, { at: number; connection: Promise<StripeConnection | null> }>();

/** The account's connection, or null when it has not connected Stripe. */
export function stripeConnectionOf(db: Database, accountId: string): Promise<StripeConnection | null> {
  const now = Date.now();
  const cached = cache.get(accountId);
  if (cached && now - cached.at < CACHE_MS) return cached.connection;
  const connection = openConnection(db, accountId);
  cache.set(accountId, { at: now, connection });
  connection.catch(() => cache.delete(accountId));
  return connection;
}

async function openConnection(db: Database, accountId: string): Promise<StripeConnection | null> {
  const row = await db.stripeConnection.findUnique({ where: { accountId } });
  if (!row) return null;
  const key = secretsKey();
  return {
    accountId,
    client: stripeClient(openSecret(key, stripeSecretPurpose(accountId, 'secret-key'), row.sealedSecretKey), row.apiBase),
    webhookSecret: openSecret(key, stripeSecretPurpose(accountId, 'webhook-secret'), row.sealedWebhookSecret),
    livemode: row.livemode,
  };
}

export interface StripeCredentialsInput {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's address unless given: an emulator or an egress proxy. */
  apiBase?: string | null;
  /** For Stripe.js on the customer's pages. Absent: the connection keeps the one it has; null or empty: none. */
  publishableKey?: string | null;
  /** `operator`, or the dashboard user saving them. */
  connectedBy: string;
}

/** What is shown of a connection, ever: never a secret, only its last 4 characters. */
export interface StripeConnectionView {
  account_id: string;
  provider: 'stripe';
  livemode: boolean;
  secret_key_last4: string;
  webhook_secret_last4: string;
  api_base: string | null;
  /** Public (Stripe.js runs with it in customers' browsers), so shown in full; null until one is saved. */
  publishable_key: string | null;
  connected_by: string;
  connected_at: string;
  updated_at: string;
}

/**
 * Saves (or rotates) an account's Stripe credentials, after one harmless call with the key
 * (retrieving the balance) shows Stripe accepts it. Refusals: 422 PROVIDER_CREDENTIALS_REJECTED
 * with `reason` (`format`, `rejected` by Stripe, `unreachable`); nothing is saved then. `key` is
 * SECRETS_KEY unless given: the operator command reads the platform's from its data directory.
 */
export async function connectStripe(
  db: Database,
  accountId: string,
  input: StripeCredentialsInput,
  now: Date,
  key?: Uint8Array,
): Promise<StripeConnectionView> {
  if (!isStripeSecretKey(input.secretKey)) refuse('format', 'secret_key', 'The secret key must be a Stripe secret or restricted key (sk_… or rk_…).');
  if (!isStripeWebhookSecret(input.webhookSecret)) refuse('format', 'webhook_secret', "The webhook signing secret must be the endpoint's whsec_… secret.");
  const apiBase = input.apiBase ?? null;
  if (apiBase !== null && !isHttpUrl(apiBase)) refuse('format', 'api_base', 'api_base must be an http(s) URL.');
  const publishableKey = input.publishableKey === undefined ? await savedPublishableKey(db, accountId) : input.publishableKey || null;
  if (publishableKey !== null) {
    if (!isStripePublishableKey(publishableKey)) refuse('format', 'publishable_key', 'The publishable key must be a Stripe publishable key (pk_test_… or pk_live_…).');
    if (!publishableKeyMatchesMode(publishableKey, input.secretKey)) {
      const mode = isLiveKey(input.secretKey) ? 'live' : 'test';
      refuse('format', 'publishable_key', `The publishable key must be of the secret key's mode: pk_${mode}_… for a ${mode} key.`);
    }
  }
  try {
    await stripeClient(input.secretKey, apiBase).balance.retrieve();
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'StripeAuthenticationError' || type === 'StripePermissionError') {
      refuse('rejected', 'secret_key', 'Stripe refused the secret key (revoked, wrong account or lacking permission).');
    }
    refuse('unreachable', 'api_base', `Stripe could not be reached to check the key: ${(error as Error).message}`);
  }
  const sealingKey = key ?? secretsKey();
  const data = {
    sealedSecretKey: new Uint8Array(sealSecret(sealingKey, stripeSecretPurpose(accountId, 'secret-key'), input.secretKey)),
    secretKeyLast4: lastFour(input.secretKey),
    sealedWebhookSecret: new Uint8Array(sealSecret(sealingKey, stripeSecretPurpose(accountId, 'webhook-secret'), input.webhookSecret)),
    webhookSecretLast4: lastFour(input.webhookSecret),
    apiBase,
    publishableKey,
    livemode: isLiveKey(input.secretKey),
    connectedBy: input.connectedBy,
    updatedAt: now,
  };
  const row = await db.stripeConnection.upsert({ where: { accountId }, create: { accountId, ...data, connectedAt: now }, update: data });
  cache.delete(accountId);
  return viewOf(row);
}

/** The connection as shown, or null when the account has none. */
export async function stripeConnectionView(db: Database, accountId: string): Promise<StripeConnectionView | null> {
  const row = await db.stripeConnection.findUnique({ where: { accountId } });
  return row ? viewOf(row) : null;
}

async function savedPublishableKey(db: Database, accountId: string): Promise<string | null> {
  return (await db.stripeConnection.findUnique({ where: { accountId }, select: { publishableKey: true } }))?.publishableKey ?? null;
}

type ConnectionRow = NonNullable<Awaited<ReturnType<Database['stripeConnection']['findUnique']>>>;

function viewOf(row: ConnectionRow): StripeConnectionView {
  return {
    account_id: row.accountId,
    provider: 'stripe',
    livemode: row.livemode,
    secret_key_last4: row.secretKeyLast4,
    webhook_secret_last4: row.webhookSecretLast4,
    api_base: row.apiBase,
    publishable_key: row.publishableKey,
    connected_by: row.connectedBy,
    connected_at: formatDateTime(row.connectedAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function refuse(reason: 'format' | 'rejected' | 'unreachable', field: string, message: string): never {
  throw new ApiError('PROVIDER_CREDENTIALS_REJECTED', message, { provider: 'stripe', reason, field });
}
