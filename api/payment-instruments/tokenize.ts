import { z } from 'zod';
import { cardDigits, cardFingerprint } from '../../domain/card-fingerprint';
import { luhnValid } from '../../domain/cards';
import { ApiError } from '../../domain/errors';
import { tokenizeCard } from '../../services/payment-instruments/tokenize';
import { secretsKey } from '../../services/secrets/secrets-key';
import { channelIdField } from '../common/schemas';
import { customerId } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { cardFingerprintKey } from '../secrets/card-fingerprint-key';
import { authorizedProcedure, operation } from '../trpc';
import { operationScope } from '../auth/channel-scope';
import { paymentInstrumentObject } from './schemas';

/** Cards are issued for a few years; anything further out is a typo. */
export const MAX_YEARS_AHEAD = 20;

/**
 * The card number becomes its digits here and goes no further than this request: no message
 * below quotes it, and zod's own messages for a wrong type or length never quote a value.
 */
const cardNumber = z
  .string()
  .max(40)
  .transform((number, ctx) => {
    const digits = cardDigits(number);
    if (digits === null) {
      ctx.addIssue({ code: 'custom', message: 'Expected 12 to 19 digits; spaces between groups are allowed.', params: { type: 'FORMAT' } });
      return z.NEVER;
    }
    if (!luhnValid(digits)) {
      ctx.addIssue({ code: 'custom', message: 'Not a valid card number (Luhn check failed); check for a mistyped digit.', params: { type: 'INVALID' } });
      return z.NEVER;
    }
    return digits;
  })
  .meta({
    // The form a client should send: 12 to 19 digits, single spaces between groups. The server also
    // takes runs of spaces and blanks around (docs/testing.md); the Luhn check is not a pattern.
    pattern: '^[0-9](?: ?[0-9]){11,18}$',
    description: 'The card number, 12 to 19 digits; spaces allowed. Never stored, logged or returned.',
  });

export const tokenizePaymentInstrumentRequest = z.strictObject({
  customer_id: customerId,
  channel_id: channelIdField,
  card: z.strictObject({
    number: cardNumber,
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int().min(2000).meta({ description: `Four digits; at most ${MAX_YEARS_AHEAD} years ahead.` }),
    cardholder_name: z.string().trim().min(1).regex(/\S/).max(100).optional(),
  }),
});

type TokenizeRequest = z.infer<typeof tokenizePaymentInstrumentRequest>;

export const tokenizePaymentInstrument = authorizedProcedure
  .meta(
    operation('payment-instruments/tokenize', {
      summary: 'Save a card for a customer (sandbox tokenization)',
      description:
        'Validates the number (Luhn), refuses an expired card, keeps brand, last four digits, expiry and a keyed fingerprint, never the number. The instrument expires by itself at the end of its expiry month. Emits PaymentInstrumentCreated.',
    }),
  )
  .input(tokenizePaymentInstrumentRequest)
  .output(paymentInstrumentObject)
  .mutation(async ({ ctx, input }) => {
    const { card } = input;
    const now = ctx.now();
    if (card.exp_year > now.getUTCFullYear() + MAX_YEARS_AHEAD) {
      throw ApiError.validation({ 'card.exp_year': { type: 'MAX', message: `At most ${MAX_YEARS_AHEAD} years ahead.` } });
    }
    const fingerprint = cardFingerprint(await cardFingerprintKey(ctx.db, ctx.principal.accountId, secretsKey()), card.number);
    return withIdempotency(ctx, 'payment-instruments/tokenize', withoutNumber(input, fingerprint), (ctx) =>
      // One instant for the year bound above and the expiry check.
      ctx.transaction((tx) =>
        tokenizeCard({ now: () => now, temporal: ctx.temporal }, tx, operationScope(ctx.principal, input.channel_id), {
          customerId: input.customer_id,
          number: card.number,
          expMonth: card.exp_month,
          expYear: card.exp_year,
          cardholderName: card.cardholder_name ?? null,
          fingerprint,
        }),
      ),
    );
  });

/**
 * What the Idempotency-Key compares: the request with the card number replaced by its keyed
 * fingerprint. The stored request hash is then no unkeyed hash of a card number, which could
 * be reversed by trying every number of a BIN range, yet a retry with the same card matches.
 */
function withoutNumber(input: TokenizeRequest, fingerprint: string) {
  const { number: _number, ...card } = input.card;
  return { ...input, card: { ...card, fingerprint } };
}
