/**
 * When a delivery is tried again after a non-2xx answer, a timeout or a connection error
 * (docs/webhooks.md, "Retries"): delays after attempt 1, 2, … grow fourfold from one minute and
 * are capped at a day: 1 m, 4 m, 16 m, 64 m, 4 h 16 m, 17 h 4 m, then 24 h three times. Ten
 * attempts over 3 days 22 h 45 m; after the tenth failure the delivery is FAILED.
 */
const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const RETRY_DELAYS_MS: readonly number[] = Array.from({ length: 9 }, (_, n) => Math.min(MINUTE_MS * 4 ** n, DAY_MS));

export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * An endpoint whose deliveries have all failed for this long (no success in between) is
 * DISABLED: with the schedule above, an endpoint down for good is disabled at the last attempt
 * of the first delivery it failed.
 */
export const ENDPOINT_DISABLE_AFTER_MS = 3 * DAY_MS;

/** How long the deliverer waits for an answer; WEBHOOK_DELIVERY_TIMEOUT_MS overrides it. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
