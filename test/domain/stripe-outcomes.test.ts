import { declineOf, outcomeOfPaymentIntent, outcomeOfRefund } from '../../domain/stripe-outcomes';

const intent = (status: string, extra: Partial<Parameters<typeof outcomeOfPaymentIntent>[0]> = {}) =>
  outcomeOfPaymentIntent({ id: 'pi_1', status, fee: null, nextActionUrl: null, lastPaymentError: null, ...extra });

describe('Stripe outcomes', () => {
  it('maps every PaymentIntent status the charge path can meet', () => {
    expect(intent('succeeded', { fee: 320 })).toEqual({ outcome: 'APPROVED', providerChargeId: 'pi_1', fee: 320 });
    expect(intent('succeeded')).toEqual({ outcome: 'APPROVED', providerChargeId: 'pi_1', fee: 0 });
    expect(intent('processing')).toEqual({ outcome: 'PROCESSING', providerChargeId: 'pi_1' });
    expect(intent('requires_action', { nextActionUrl: 'https://hooks.stripe.com/3d_secure/x' })).toEqual({
      outcome: 'REQUIRES_ACTION',
      providerChargeId: 'pi_1',
      nextActionUrl: 'https://hooks.stripe.com/3d_secure/x',
    });
    expect(intent('requires_confirmation')).toEqual({ outcome: 'UNCONFIRMED', providerChargeId: 'pi_1' });
    expect(intent('canceled')).toMatchObject({ outcome: 'HARD_DECLINED', declineCode: 'payment_intent_canceled' });
    expect(intent('requires_payment_method', { lastPaymentError: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'No money.' } })).toEqual({
      outcome: 'SOFT_DECLINED',
      providerChargeId: 'pi_1',
      declineCode: 'insufficient_funds',
      message: 'No money.',
    });
    // Off-session, Stripe asks for authentication with a card error and the PaymentIntent back in requires_payment_method.
    expect(intent('requires_payment_method', { lastPaymentError: { code: 'authentication_required', decline_code: 'authentication_required' } })).toEqual({
      outcome: 'REQUIRES_ACTION',
      providerChargeId: 'pi_1',
      nextActionUrl: null,
    });
    // A failed authentication leaves no card error: it is final for this PaymentIntent.
    expect(intent('requires_payment_method')).toMatchObject({ outcome: 'HARD_DECLINED', declineCode: 'payment_intent_authentication_failure' });
  });

  it("keeps Stripe's decline code, soft only where Stripe says a retry may succeed", () => {
    expect(declineOf({ code: 'card_declined', decline_code: 'stolen_card', message: 'Stolen.' })).toEqual({ outcome: 'HARD_DECLINED', declineCode: 'stolen_card', message: 'Stolen.' });
    expect(declineOf({ code: 'card_declined', decline_code: 'try_again_later' })).toMatchObject({ outcome: 'SOFT_DECLINED', declineCode: 'try_again_later' });
    expect(declineOf({ code: 'expired_card' })).toMatchObject({ outcome: 'HARD_DECLINED', declineCode: 'expired_card' });
    expect(declineOf({ code: 'card_declined' })).toMatchObject({ outcome: 'HARD_DECLINED', declineCode: 'card_declined' });
  });

  it('leaves pending refunds pending and refuses failed ones', () => {
    expect(outcomeOfRefund({ id: 're_1', status: 'succeeded' })).toEqual({ outcome: 'REFUNDED', providerRefundId: 're_1' });
    expect(outcomeOfRefund({ id: 're_1', status: 'pending' })).toEqual({ outcome: 'PENDING', providerRefundId: 're_1' });
    expect(outcomeOfRefund({ id: 're_1', status: 'requires_action' })).toEqual({ outcome: 'PENDING', providerRefundId: 're_1' });
    expect(outcomeOfRefund({ id: 're_1', status: 'failed', failure_reason: 'expired_or_canceled_card' })).toMatchObject({ outcome: 'REJECTED', code: 'refund_failed' });
  });
});
