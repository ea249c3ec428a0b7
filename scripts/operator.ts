import { parseArgs } from 'node:util';
import { Connection } from '@temporalio/client';
import { PERMISSIONS } from '../domain/permissions';
import { createDatabase } from '../prisma/client';
import { createAccount, createChannel, createOperatorApiKey } from './operator/accounts';
import { setAntifraudEnabled } from './operator/antifraud';
import { checkBalances, setProrationCredit } from './operator/customer-balance';
import { inviteDashboardUser } from './operator/dashboard-users';
import { temporalSettings } from '../services/temporal/connection-settings';
import { setUpTemporal } from './operator/temporal-setup';
import { assignLegalEntity, createLegalEntity, listLegalEntities } from './operator/legal-entities';
import { issueV1Secret, operatorSecretsKey, revokeV1Secret } from './operator/v1-secrets';
import { connectStripeAsOperator, showStripeConnection } from './operator/stripe-connection';

const USAGE = `Operator commands (DATABASE_URL must point at the platform's database):
  npm run operator -- create-account --name "Acme"
  npm run operator -- create-channel --account acct_… --name "Web shop"
  npm run operator -- create-key --account acct_… --name "Backend" [--channels chn_a,chn_b] [--permissions invoices:get,invoices:pay]
  npm run operator -- permissions
  npm run operator -- invite-user --account acct_… --email someone@example.com --role MERCHANT_ADMIN|DEVELOPER|SUPPORT   (prints a dashboard invitation link: works once, expires after 72 h, 24 h for MERCHANT_ADMIN)
  npm run operator -- set-antifraud --account acct_… --enabled true|false
  npm run operator -- set-proration-credit --account acct_… --to CUSTOMER_BALANCE|REFUND   (docs/customer-balance.md)
  npm run operator -- check-balances --account acct_…   (customer balances that disagree with their ledger; exits 1 if any)
  npm run operator -- issue-v1-secret --account acct_… [--overlap-hours 24]   (issues or rotates the v1 restore secret; shown once; the old one stays valid for the overlap)
  npm run operator -- revoke-v1-secret --account acct_…
  npm run operator -- create-legal-entity --account acct_… --name "Acme GmbH" --country DEU
  npm run operator -- assign-legal-entity --channel chn_… --legal-entity le_…|none
  npm run operator -- list-legal-entities --account acct_…
  npm run operator -- connect-stripe --account acct_… --secret-key sk_… --webhook-secret whsec_… [--api-base http://…] [--publishable-key pk_…]   (saves or rotates the account's Stripe credentials after Stripe accepted the key; prints their last 4 only; without --api-base or --publishable-key a rotation keeps them, docs/payments-stripe.md)
  npm run operator -- stripe-connection --account acct_…   (the account's Stripe connection: livemode, last 4 of each secret, address, who connected it)
  npm run operator -- temporal-setup [--retention-days 7]   (Temporal's settings, docs/configuration.md: creates the namespace when missing and registers the platform's search attributes; safe to repeat)`;

/**
 * Node's own parse errors quote the argument they stumbled on, which may be a secret given one
 * word too many (`--secret-key sk_… sk_…`): those are answered without it.
 */
function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { name: { type: 'string' }, account: { type: 'string' }, channels: { type: 'string' }, permissions: { type: 'string' }, enabled: { type: 'string' }, country: { type: 'string' }, channel: { type: 'string' }, 'legal-entity': { type: 'string' }, 'overlap-hours': { type: 'string' }, 'retention-days': { type: 'string' }, to: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, 'secret-key': { type: 'string' }, 'webhook-secret': { type: 'string' }, 'api-base': { type: 'string' }, 'publishable-key': { type: 'string' } },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new Error(`An argument without an option before it (not shown: it may be a secret).\n${USAGE}`);
    throw error;
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseOptions(rest);
  const list = (value?: string) => (value ? value.split(',').map((v) => v.trim()).filter(Boolean) : undefined);
  const required = (value: string | undefined, flag: string) => {
    if (!value) throw new Error(`--${flag} is required.\n${USAGE}`);
    return value;
  };
  if (command === 'permissions') {
    console.log(PERMISSIONS.join('\n'));
    return;
  }
  if (command === 'temporal-setup') {
    const { connectionOptions, namespace } = temporalSettings();
    const connection = await Connection.connect(connectionOptions);
    try {
      const retentionDays = values['retention-days'] === undefined ? undefined : Number(values['retention-days']);
      if (retentionDays !== undefined && !(Number.isInteger(retentionDays) && retentionDays > 0)) throw new Error(`--retention-days is a whole number of days.\n${USAGE}`);
      console.log(JSON.stringify(await setUpTemporal(connection, namespace, { retentionDays })));
    } finally {
      await connection.close();
    }
    return;
  }
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres:postgres@127.0.0.1:5433/billing';
  const db = createDatabase(databaseUrl, 2);
  try {
    switch (command) {
      case 'create-account':
        console.log(JSON.stringify(await createAccount(db, required(values.name, 'name'))));
        break;
      case 'create-channel':
        console.log(JSON.stringify(await createChannel(db, required(values.account, 'account'), required(values.name, 'name'))));
        break;
      case 'create-key': {
        const permissions = list(values.permissions);
        const unknown = permissions?.filter((p) => !(PERMISSIONS as readonly string[]).includes(p)) ?? [];
        if (unknown.length) throw new Error(`Unknown permissions: ${unknown.join(', ')} (see: npm run operator -- permissions)`);
        const { row, secret } = await createOperatorApiKey(db, {
          accountId: required(values.account, 'account'),
          name: required(values.name, 'name'),
          channelIds: list(values.channels),
          permissions,
        });
        console.log(JSON.stringify({ id: row.id, channel_ids: row.channelIds, permissions: row.permissions }));
        console.log(`secret (shown once): ${secret}`);
        break;
      }
      case 'invite-user': {
        const { url, ...invitation } = await inviteDashboardUser(db, {
          accountId: required(values.account, 'account'),
          email: required(values.email, 'email'),
          role: required(values.role, 'role'),
        });
        console.log(JSON.stringify(invitation));
        console.log(`invitation link (works once): ${url}`);
        break;
      }
      case 'set-antifraud': {
        const enabled = required(values.enabled, 'enabled');
        if (enabled !== 'true' && enabled !== 'false') throw new Error(`--enabled is true or false.\n${USAGE}`);
        console.log(JSON.stringify(await setAntifraudEnabled(db, required(values.account, 'account'), enabled === 'true')));
        break;
      }
      case 'set-proration-credit':
        console.log(JSON.stringify(await setProrationCredit(db, required(values.account, 'account'), required(values.to, 'to'))));
        break;
      case 'check-balances': {
        const disagreements = await checkBalances(db, required(values.account, 'account'));
        for (const disagreement of disagreements) console.log(JSON.stringify(disagreement));
        if (disagreements.length > 0) process.exitCode = 1;
        break;
      }
      case 'issue-v1-secret': {
        const overlapHours = values['overlap-hours'] === undefined ? undefined : Number(values['overlap-hours']);
        const { secret, ...issued } = await issueV1Secret(db, required(values.account, 'account'), operatorSecretsKey(), { overlapHours });
        console.log(JSON.stringify(issued));
        console.log(`v1 secret (shown once): ${secret}`);
        break;
      }
      case 'revoke-v1-secret':
        console.log(JSON.stringify(await revokeV1Secret(db, required(values.account, 'account'))));
        break;
      case 'create-legal-entity':
        console.log(
          JSON.stringify(
            await createLegalEntity(db, { accountId: required(values.account, 'account'), name: required(values.name, 'name'), country: required(values.country, 'country') }),
          ),
        );
        break;
      case 'assign-legal-entity': {
        const legalEntity = required(values['legal-entity'], 'legal-entity');
        console.log(JSON.stringify(await assignLegalEntity(db, required(values.channel, 'channel'), legalEntity === 'none' ? null : legalEntity)));
        break;
      }
      case 'connect-stripe':
        console.log(
          JSON.stringify(
            await connectStripeAsOperator(
              db,
              {
                accountId: required(values.account, 'account'),
                secretKey: required(values['secret-key'], 'secret-key'),
                webhookSecret: required(values['webhook-secret'], 'webhook-secret'),
                apiBase: values['api-base'],
                publishableKey: values['publishable-key'],
              },
              operatorSecretsKey(),
            ),
          ),
        );
        break;
      case 'stripe-connection':
        console.log(JSON.stringify(await showStripeConnection(db, required(values.account, 'account'))));
        break;
      case 'list-legal-entities':
        console.log(JSON.stringify(await listLegalEntities(db, required(values.account, 'account')), null, 2));
        break;
      default:
        console.log(USAGE);
        process.exitCode = command ? 1 : 0;
    }
  } finally {
    await db.$disconnect();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
