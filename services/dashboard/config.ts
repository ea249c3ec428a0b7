import { availableParallelism } from 'node:os';

/**
 * The dashboard's limits (docs/configuration.md, docs/dashboard.md "Sessions" and "Security").
 * Read at each call, as the other settings are: tests and the launcher set the environment after
 * modules load.
 */
export interface DashboardSettings {
  /** A session unused this long is over. */
  sessionIdleMs: number;
  /** A session is over this long after sign-in, however busy. */
  sessionAbsoluteMs: number;
  invitationTtlMs: number;
  /** A MERCHANT_ADMIN's invitation. */
  adminInvitationTtlMs: number;
  signInWindowMs: number;
  signInAttemptsPerEmail: number;
  signInAttemptsPerAddress: number;
  /** A device or address a user signed in from is known this long after its last sign-in. */
  knownClientMs: number;
  /** Requests per minute (and burst) of each address to the routes that need no session. */
  publicRequestsPerMinute: number;
  /** argon2 calls in flight at once in one process. */
  passwordHashesAtOnce: number;
  /** How long a call waits for one of those slots before it is refused. */
  passwordHashWaitMs: number;
  /** Sign-ins per second (and burst) one process checks a password for when the client is unknown. */
  unknownClientSignInsPerSecond: number;
  /** How long after it arrived a public route's refusal (failed sign-in, bad token, 429) is answered (api/dashboard/refusal-tarpit.ts). */
  publicRefusalHoldMs: number;
  /** Refusals held at once for one address; past it, answered at once and the connection closed. */
  publicRefusalsHeldPerAddress: number;
  /** Refusals held at once in one process, all addresses together; past it, the same. */
  publicRefusalsHeldAtOnce: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${text} (docs/configuration.md).`);
  return value;
}

export function dashboardSettings(env: NodeJS.ProcessEnv = process.env): DashboardSettings {
  return {
    sessionIdleMs: positiveNumber(env, 'DASHBOARD_SESSION_IDLE_MINUTES', 30) * MINUTE,
    sessionAbsoluteMs: positiveNumber(env, 'DASHBOARD_SESSION_ABSOLUTE_HOURS', 12) * 60 * MINUTE,
    invitationTtlMs: positiveNumber(env, 'DASHBOARD_INVITATION_TTL_HOURS', 72) * 60 * MINUTE,
    adminInvitationTtlMs: positiveNumber(env, 'DASHBOARD_ADMIN_INVITATION_TTL_HOURS', 24) * 60 * MINUTE,
    signInWindowMs: positiveNumber(env, 'DASHBOARD_SIGN_IN_WINDOW_MINUTES', 15) * MINUTE,
    signInAttemptsPerEmail: positiveNumber(env, 'DASHBOARD_SIGN_IN_ATTEMPTS_PER_EMAIL', 5),
    signInAttemptsPerAddress: positiveNumber(env, 'DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS', 30),
    knownClientMs: positiveNumber(env, 'DASHBOARD_KNOWN_CLIENT_DAYS', 90) * DAY,
    publicRequestsPerMinute: positiveNumber(env, 'DASHBOARD_PUBLIC_REQUESTS_PER_MINUTE', 60),
    // Half the cores: the other half keeps serving everything else while a flood of guesses waits.
    passwordHashesAtOnce: Math.max(1, Math.floor(positiveNumber(env, 'DASHBOARD_PASSWORD_HASHES_AT_ONCE', availableParallelism() / 2))),
    passwordHashWaitMs: positiveNumber(env, 'DASHBOARD_PASSWORD_HASH_WAIT_MS', 1000),
    // A tenth of a core at most on the reference machine (an argon2id verification takes 15–40 ms
    // there), so a botnet's guesses keep the API within 2× of its quiet p99 (docs/benchmarks.md,
    // "Dashboard flood"; 5 a second and a 1 s hold left it at 2.4×); a browser or address a user
    // signed in from before is never counted here.
    unknownClientSignInsPerSecond: positiveNumber(env, 'DASHBOARD_UNKNOWN_CLIENT_SIGN_INS_PER_SECOND', 2),
    // 64 connections guessing from new addresses come back 32 times a second, not 64.
    publicRefusalHoldMs: positiveNumber(env, 'DASHBOARD_PUBLIC_REFUSAL_HOLD_MS', 2000),
    // More than browsers (6 connections a host) or an office behind one NAT keep open at once.
    publicRefusalsHeldPerAddress: positiveNumber(env, 'DASHBOARD_PUBLIC_REFUSALS_HELD_PER_ADDRESS', 100),
    publicRefusalsHeldAtOnce: positiveNumber(env, 'DASHBOARD_PUBLIC_REFUSALS_HELD_AT_ONCE', 1000),
  };
}
