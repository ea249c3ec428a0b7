/**
 * The longest overlap a rotation may give the previous secret, API keys and webhook endpoints
 * alike: thirty days, long enough to roll a secret through any deployment, short enough to matter.
 */
export const MAX_ROTATION_PERIOD_SECONDS = 30 * 24 * 60 * 60;
