/**
 * How long each growing table keeps its rows once nothing needs them any more (docs/retention.md,
 * docs/configuration.md). Read at each call, as the other settings are: tests and the launcher set
 * the environment after modules load. Each minimum is what a live guarantee needs; a value under it
 * is refused at the start rather than silently deleting what the guarantee rests on.
 */
export interface RetentionSettings {
  /** Rows one DELETE statement removes at most. */
  batchSize: number;
  /** The share of the wall clock a purge may spend in its statements (services/batched-delete.ts). */
  busyShare: number;
  /** How often the retention workflow runs; read when it is started. */
  intervalMinutes: number;
  /** A final delivery (SUCCEEDED, FAILED, CANCELLED) and its attempts, counted from its last change. */
  webhookDeliveryMs: number;
  /** A dispatched outbox event none of whose deliveries is left, counted from its dispatch. */
  outboxEventMs: number;
  /** A dashboard audit row, counted from when it was written. */
  auditLogMs: number;
  /** A customer portal link and the session it opened, counted from the link's creation. */
  portalSessionMs: number;
  /** A dashboard invitation or password-reset link, counted from its expiry. */
  dashboardLinkMs: number;
  /** A Stripe event already applied, counted from when it was applied. */
  stripeEventMs: number;
  /** A rate-limit bucket untouched this long: it has refilled, and a missing one starts full. */
  rateLimitBucketMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number, why: string, maximum = Number.MAX_SAFE_INTEGER): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  // Digits only: Number() would also take "1e3", "0x10" or " 7 ", which no operator means.
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    const range = maximum === Number.MAX_SAFE_INTEGER ? `at least ${minimum}` : `from ${minimum} to ${maximum}`;
    throw new Error(`${name} must be a whole number, ${range} (${why}), not ${JSON.stringify(text)} (docs/retention.md).`);
  }
  return value;
}

export function retentionSettings(env: NodeJS.ProcessEnv = process.env): RetentionSettings {
  const webhookDeliveryDays = wholeNumber(env, 'RETENTION_WEBHOOK_DELIVERY_DAYS', 30, 7, "receivers remember an event_id 7 days; a redelivery inside them must find it");
  return {
    // Bounded above too: one statement is one transaction, and a huge batch holds its locks as long.
    batchSize: wholeNumber(env, 'RETENTION_BATCH_SIZE', 5_000, 1, 'rows per statement', 100_000),
    // A catch-up purge of millions of rows beside full load: at its whole share it took 36 % of
    // bench:api's requests on 2 cores, at 20 % 16 %, at 10 % 12 % (docs/retention.md, "Pacing").
    busyShare: wholeNumber(env, 'RETENTION_BUSY_PERCENT', 10, 1, 'percent of the time a purge spends in its statements', 100) / 100,
    intervalMinutes: wholeNumber(env, 'RETENTION_INTERVAL_MINUTES', 60, 1, 'minutes between runs'),
    // A redelivery needs the event and list-deliveries shows the attempts: 30 days for both.
    webhookDeliveryMs: webhookDeliveryDays * DAY,
    // An event is kept while a delivery names it: a shorter retention than the deliveries' would
    // leave every batch rereading the events still named, from the head of its range, run after run.
    outboxEventMs: wholeNumber(env, 'RETENTION_OUTBOX_EVENT_DAYS', 30, webhookDeliveryDays, 'the webhook deliveries\' retention: an event outlives its deliveries') * DAY,
    auditLogMs: wholeNumber(env, 'RETENTION_AUDIT_LOG_DAYS', 400, 1, 'a day at least') * DAY,
    // A link opens within 10 minutes and its session ends 12 hours after, so a day covers every live one.
    portalSessionMs: wholeNumber(env, 'RETENTION_PORTAL_SESSION_DAYS', 7, 1, 'a session lives up to 12 h 10 min after its link was made') * DAY,
    dashboardLinkMs: wholeNumber(env, 'RETENTION_DASHBOARD_LINK_DAYS', 30, 0, 'days after expiry') * DAY,
    // Stripe retries an event for up to 3 days: its row is what makes a retry a duplicate.
    stripeEventMs: wholeNumber(env, 'RETENTION_STRIPE_EVENT_DAYS', 30, 4, 'Stripe retries an event for up to 3 days') * DAY,
    rateLimitBucketMs: wholeNumber(env, 'RETENTION_RATE_LIMIT_BUCKET_HOURS', 24, 1, 'a bucket refills within its burst / rate seconds') * HOUR,
  };
}
