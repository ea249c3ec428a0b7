/**
 * Activities that charge through a provider may run for minutes (their start-to-close timeout),
 * so a worker killed mid-charge would hold its workflow that long: a subscription's Updates wait
 * behind its renewal. They heartbeat instead, and Temporal retries an attempt whose worker went
 * silent after CHARGE_HEARTBEAT_TIMEOUT_MS. The retry is the same charge (its key).
 */
export const CHARGE_HEARTBEAT_TIMEOUT_MS = 20_000;

/** Well inside the timeout: one late timer tick does not time an attempt out. */
export const CHARGE_HEARTBEAT_EVERY_MS = 5_000;
