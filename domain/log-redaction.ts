import { luhnValid } from './cards';
import { ID_PREFIXES } from './ids';
import { V1_SECRET_PREFIX } from './v1-signature';

export const REDACTED = '[REDACTED]';

const SECRET_PREFIXES = [ID_PREFIXES.apiKeySecret, ID_PREFIXES.webhookSecret, V1_SECRET_PREFIX];
const SECRET = new RegExp(`(?:${SECRET_PREFIXES.join('|')})[A-Za-z0-9_-]+`, 'g');
/** Stripe's secret and restricted keys and webhook signing secrets, which accounts hand the platform (docs/payments-stripe.md). */
const STRIPE_SECRET = /\b(?:(?:sk|rk)_(?:test|live)_[A-Za-z0-9]+|whsec_[A-Za-z0-9+/=]+)/g;
/** Any credential after an auth scheme, whatever its shape: a key the platform never issued is still someone's secret. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
/**
 * The customer portal's one-time links and hosted invoice links carry their credential in the
 * path (docs/portal.md): a logged request line would hand out the invoice, or the session.
 */
const PORTAL_LINK = /\/portal\/(open|invoices)\/[^\s"'?#/]+/g;
/** 12 to 19 digits, optionally grouped by spaces or dashes, not part of a longer word or number. */
const DIGIT_RUN = /(?<![\w.-])\d(?:[ -]?\d){11,18}(?![\w])/g;

/**
 * A log line with every secret the platform knows the shape of taken out: API key, webhook and v1
 * restore secrets, Stripe keys and signing secrets, whatever follows `Bearer`/`Basic`, the tokens of portal and hosted invoice links, and card numbers (a digit run that passes the Luhn
 * check). Applied to the whole serialized line, so a secret quoted inside an error message or a
 * nested field is caught as well as one in a named field.
 */
export function redactSecrets(line: string): string {
  return line
    .replace(AUTH_SCHEME, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(SECRET, REDACTED)
    .replace(STRIPE_SECRET, REDACTED)
    .replace(PORTAL_LINK, (_match, kind: string) => `/portal/${kind}/${REDACTED}`)
    .replace(DIGIT_RUN, (run) => (luhnValid(run.replace(/[ -]/g, '')) ? REDACTED : run));
}
