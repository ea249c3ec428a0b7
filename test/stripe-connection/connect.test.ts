import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { openSecret } from '../../domain/secret-box';
import { stripeSecretPurpose } from '../../domain/stripe-credentials';
import { createAccount } from '../../scripts/operator/accounts';
import { connectStripe, stripeConnectionOf } from '../../services/payments/providers/stripe/connection';
import { connectStripeFromDashboard } from '../../services/payments/providers/stripe/dashboard-connection';
import { secretsKey } from '../../services/secrets/secrets-key';
import { freePort } from '../../scripts/net/free-port';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startLocalstripe, type StripeEmulator } from '../support/stripe-emulators';

/**
 * Issue 41, item 1: an account's Stripe credentials saved and rotated by the operator command
 * and by the service the dashboard uses, checked against localstripe first, sealed, and shown by
 * their last 4 characters only.
 */
const ROOT = resolve(__dirname, '../..');
process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');

let database: TestDatabase;
let localstripe: StripeEmulator;

beforeAll(async () => {
  [database, localstripe] = await Promise.all([createTestDatabase(), startLocalstripe()]);
});

afterAll(() => database?.drop());

/** An address nothing listens on: Stripe cannot be reached there. */
const unreachableUrl = async () => `http://127.0.0.1:${await freePort()}`;

/** A credential of Stripe's shape no other test uses: its bytes are searched for afterwards. */
const secret = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;

function operator(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/operator.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: database.url },
  });
}

/** The connection's row as stored, every column as text: a secret must be in none of them. */
async function storedRow(accountId: string): Promise<string> {
  const rows = await database.db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT encode(sealed_secret_key, 'escape') AS k, encode(sealed_webhook_secret, 'escape') AS w, encode(sealed_secret_key, 'hex') AS kh,
            encode(sealed_webhook_secret, 'hex') AS wh, secret_key_last4, webhook_secret_last4, api_base, connected_by FROM stripe_connections WHERE account_id = $1`,
    accountId,
  );
  return JSON.stringify(rows);
}

describe('npm run operator -- connect-stripe', () => {
  it('saves the credentials after localstripe accepted the key, prints and stores the last 4 only, and stripe-connection shows them', async () => {
    const account = await createAccount(database.db, 'Operated by Stripe');
    const secretKey = secret('sk_test_');
    const webhookSecret = secret('whsec_');

    const run = operator('connect-stripe', '--account', account.id, '--secret-key', secretKey, '--webhook-secret', webhookSecret, '--api-base', localstripe.url);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const view = JSON.parse(run.stdout);
    expect(view).toMatchObject({
      account_id: account.id,
      provider: 'stripe',
      livemode: false,
      secret_key_last4: secretKey.slice(-4),
      webhook_secret_last4: webhookSecret.slice(-4),
      api_base: localstripe.url,
      connected_by: 'operator',
    });
    for (const value of [secretKey, webhookSecret]) expect(run.stdout + run.stderr).not.toContain(value.slice(0, -4));

    const shown = operator('stripe-connection', '--account', account.id);
    expect(shown.status).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(view);

    const stored = await storedRow(account.id);
    for (const value of [secretKey, webhookSecret]) {
      expect(stored).not.toContain(value);
      expect(stored).not.toContain(Buffer.from(value).toString('hex'));
    }
    // Sealed under the platform's key, bound to the account: the provider opens them.
    const connection = await stripeConnectionOf(database.db, account.id);
    expect(connection?.webhookSecret).toBe(webhookSecret);
    const row = await database.db.stripeConnection.findUniqueOrThrow({ where: { accountId: account.id } });
    expect(openSecret(secretsKey(), stripeSecretPurpose(account.id, 'secret-key'), row.sealedSecretKey)).toBe(secretKey);
  });

  it('rotates by connecting again: new last 4, the first connection time kept, the address kept when not given', async () => {
    const account = await createAccount(database.db, 'Rotating');
    const first = operator('connect-stripe', '--account', account.id, '--secret-key', secret('sk_test_'), '--webhook-secret', secret('whsec_'), '--api-base', localstripe.url);
    expect(first.status).toBe(0);
    const before = JSON.parse(first.stdout);

    // A live key: the connection turns live.
    const rotatedKey = secret('sk_live_');
    const webhookSecret = secret('whsec_');
    const rotated = operator('connect-stripe', '--account', account.id, '--secret-key', rotatedKey, '--webhook-secret', webhookSecret);
    expect(rotated.stderr).toBe('');
    const after = JSON.parse(rotated.stdout);
    expect(after).toMatchObject({ secret_key_last4: rotatedKey.slice(-4), webhook_secret_last4: webhookSecret.slice(-4), livemode: true, api_base: localstripe.url });
    expect(after.connected_at).toBe(before.connected_at);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect((await stripeConnectionOf(database.db, account.id))?.webhookSecret).toBe(webhookSecret);
    expect(await storedRow(account.id)).not.toContain(rotatedKey);
  });

  it('refuses a malformed key, an unknown account and a stray argument without printing the secret or saving anything', async () => {
    const account = await createAccount(database.db, 'Refused');
    const publishable = secret('pk_test_');
    const malformed = operator('connect-stripe', '--account', account.id, '--secret-key', publishable, '--webhook-secret', secret('whsec_'), '--api-base', localstripe.url);
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toContain('must be a Stripe secret or restricted key');
    expect(malformed.stdout + malformed.stderr).not.toContain(publishable);

    const stray = secret('sk_test_');
    const extra = operator('connect-stripe', '--account', account.id, '--secret-key', secret('sk_test_'), stray, '--webhook-secret', secret('whsec_'));
    expect(extra.status).toBe(1);
    expect(extra.stderr).toContain('not shown: it may be a secret');
    expect(extra.stdout + extra.stderr).not.toContain(stray);

    const unknown = operator('connect-stripe', '--account', 'acct_00000000000000000000000000', '--secret-key', secret('sk_test_'), '--webhook-secret', secret('whsec_'), '--api-base', localstripe.url);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('does not exist');

    expect(await database.db.stripeConnection.count({ where: { accountId: { in: [account.id, 'acct_00000000000000000000000000'] } } })).toBe(0);
    const none = operator('stripe-connection', '--account', account.id);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('has not connected Stripe');
  });
});

describe('the publishable key', () => {
  it('is saved by --publishable-key, shown in full, kept by a rotation without one and removed by an empty one', async () => {
    const account = await createAccount(database.db, 'Publishable');
    const publishableKey = secret('pk_test_');
    const connect = (...extra: string[]) =>
      operator('connect-stripe', '--account', account.id, '--secret-key', secret('sk_test_'), '--webhook-secret', secret('whsec_'), '--api-base', localstripe.url, ...extra);
    const first = connect('--publishable-key', publishableKey);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toMatchObject({ publishable_key: publishableKey });
    expect(JSON.parse(operator('stripe-connection', '--account', account.id).stdout)).toMatchObject({ publishable_key: publishableKey });

    expect(JSON.parse(connect().stdout)).toMatchObject({ publishable_key: publishableKey });
    expect(JSON.parse(connect('--publishable-key', '').stdout)).toMatchObject({ publishable_key: null });
    expect((await database.db.stripeConnection.findUniqueOrThrow({ where: { accountId: account.id } })).publishableKey).toBeNull();
  });

  it('must be a pk_ key of the secret key’s mode, refused before Stripe is asked, the connection saved before kept', async () => {
    const account = await createAccount(database.db, 'Publishable refused');
    const saved = secret('pk_test_');
    await connectStripe(database.db, account.id, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url, publishableKey: saved, connectedBy: 'operator' }, new Date());
    // Refusals are tried against an address nothing answers: asked first, Stripe would be `unreachable`.
    const nowhere = await unreachableUrl();
    const attempt = (secretKey: string, publishableKey?: string, apiBase = nowhere) =>
      connectStripe(database.db, account.id, { secretKey, webhookSecret: secret('whsec_'), apiBase, publishableKey, connectedBy: 'operator' }, new Date());
    const refused = (message: string) => ({ code: 'PROVIDER_CREDENTIALS_REJECTED', message: expect.stringContaining(message), context: { provider: 'stripe', reason: 'format', field: 'publishable_key' } });

    await expect(attempt(secret('sk_test_'), secret('sk_test_'))).rejects.toMatchObject(refused('must be a Stripe publishable key'));
    await expect(attempt(secret('sk_test_'), secret('pk_live_'))).rejects.toMatchObject(refused('pk_test_… for a test key'));
    // A rotation to a live key keeps the saved test publishable key unless given another: refused, not silently kept.
    await expect(attempt(secret('sk_live_'))).rejects.toMatchObject(refused('pk_live_… for a live key'));
    expect((await database.db.stripeConnection.findUniqueOrThrow({ where: { accountId: account.id } })).publishableKey).toBe(saved);

    const live = secret('pk_live_');
    expect(await attempt(secret('sk_live_'), live, localstripe.url)).toMatchObject({ livemode: true, publishable_key: live });
  });

  it('is taken from the dashboard, kept when the request leaves it out', async () => {
    const account = await createAccount(database.db, 'Publishable from the dashboard');
    const actor = { userId: 'usr_01kadmin0000000000000000000', accountId: account.id };
    const publishableKey = secret('pk_test_');
    const env = { STRIPE_API_BASE_EDITABLE: '1' };
    const saved = await connectStripeFromDashboard(database.db, actor, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url, publishableKey }, new Date(), env);
    expect(saved.publishable_key).toBe(publishableKey);
    const rotated = await connectStripeFromDashboard(database.db, actor, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_') }, new Date(), env);
    expect(rotated.publishable_key).toBe(publishableKey);
  });
});

describe('connectStripe', () => {
  const refusal = (reason: string, field: string) => ({ code: 'PROVIDER_CREDENTIALS_REJECTED', context: { provider: 'stripe', reason, field } });

  it('refuses a key Stripe rejects and an address it cannot reach; the connection saved before stays as it was', async () => {
    const account = await createAccount(database.db, 'Checked');
    const saved = await connectStripe(
      database.db,
      account.id,
      { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url, connectedBy: 'operator' },
      new Date(),
    );

    // Our format takes restricted keys; localstripe answers 401 to anything but sk_, as Stripe does to a revoked key.
    const rejected = connectStripe(database.db, account.id, { secretKey: secret('rk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url, connectedBy: 'operator' }, new Date());
    await expect(rejected).rejects.toMatchObject(refusal('rejected', 'secret_key'));
    const unreachable = connectStripe(
      database.db,
      account.id,
      { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: await unreachableUrl(), connectedBy: 'operator' },
      new Date(),
    );
    await expect(unreachable).rejects.toMatchObject(refusal('unreachable', 'api_base'));
    await expect(
      connectStripe(database.db, account.id, { secretKey: secret('sk_test_'), webhookSecret: 'not-a-whsec', apiBase: localstripe.url, connectedBy: 'operator' }, new Date()),
    ).rejects.toMatchObject(refusal('format', 'webhook_secret'));

    const row = await database.db.stripeConnection.findUniqueOrThrow({ where: { accountId: account.id } });
    expect({ key: row.secretKeyLast4, webhook: row.webhookSecretLast4, apiBase: row.apiBase }).toEqual({
      key: saved.secret_key_last4,
      webhook: saved.webhook_secret_last4,
      apiBase: localstripe.url,
    });
  });
});

describe('connectStripeFromDashboard', () => {
  const admin = { userId: 'usr_01kadmin0000000000000000000', accountId: '' };

  it('records the admin, keeps the operator’s address, and takes another only where STRIPE_API_BASE_EDITABLE allows it', async () => {
    const account = await createAccount(database.db, 'From the dashboard');
    const actor = { ...admin, accountId: account.id };
    await connectStripe(database.db, account.id, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url, connectedBy: 'operator' }, new Date());

    const kept = await connectStripeFromDashboard(database.db, actor, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_') }, new Date(), {});
    expect(kept).toMatchObject({ api_base: localstripe.url, connected_by: actor.userId });

    await expect(
      connectStripeFromDashboard(database.db, actor, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: await unreachableUrl() }, new Date(), {}),
    ).rejects.toMatchObject({ code: 'VALIDATION', context: { constraints: { api_base: { type: 'INVALID' } } } });

    const elsewhere = await unreachableUrl();
    await expect(
      connectStripeFromDashboard(database.db, actor, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: elsewhere }, new Date(), {
        STRIPE_API_BASE_EDITABLE: '1',
      }),
    ).rejects.toMatchObject({ code: 'PROVIDER_CREDENTIALS_REJECTED', context: { reason: 'unreachable', field: 'api_base' } });
    expect((await database.db.stripeConnection.findUniqueOrThrow({ where: { accountId: account.id } })).apiBase).toBe(localstripe.url);
  });
});
