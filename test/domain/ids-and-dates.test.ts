import { formatDateTime } from '../../domain/datetime';
import { eventTypeOf } from '../../domain/outbox-event';
import { EVENT_NAMES, EVENT_TYPES } from '../../domain/event-catalogue';
import { newId, newUuid } from '../../domain/ids';

describe('conventions of section 1', () => {
  it('formats date-times in UTC with six fractional digits and Z', () => {
    expect(formatDateTime(new Date('2026-11-21T09:30:01.234+02:00'))).toBe('2026-11-21T07:30:01.234000Z');
  });

  it('issues prefixed ids that sort in creation order', () => {
    const ids = Array.from({ length: 1000 }, () => newId('apiKey'));
    expect(ids.every((id) => /^akey_[0-9a-z]{26}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('issues UUIDv7 catalogue ids in creation order', () => {
    const ids = Array.from({ length: 1000 }, () => newUuid());
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    const millis = parseInt(newUuid().replace('-', '').slice(0, 12), 16);
    expect(Math.abs(millis - Date.now())).toBeLessThan(5_000);
  });

  it('derives event types the way the spec shows them', () => {
    expect(eventTypeOf('InvoiceDeleted')).toBe('INVOICE_DELETED');
    expect(eventTypeOf('InvoiceDunningStarted')).toBe('INVOICE_DUNNING_STARTED');
    expect(eventTypeOf('SubscriptionCreated')).toBe('SUBSCRIPTION_CREATED');
    expect(EVENT_NAMES).toHaveLength(27);
    // Section 6.2's 27, the four opt-in types (two of credit notes, one of a payment awaiting the
    // customer's action, one of a dispute) and the test event sent on request.
    expect(new Set(Object.values(EVENT_TYPES)).size).toBe(32);
    expect(EVENT_TYPES.InvoicePaymentActionRequired).toBe('INVOICE_PAYMENT_ACTION_REQUIRED');
    expect(EVENT_TYPES.PaymentDisputed).toBe('PAYMENT_DISPUTED');
    expect(EVENT_TYPES.CreditNoteCreated).toBe('CREDIT_NOTE_CREATED');
    expect(EVENT_TYPES.WebhookTest).toBe('WEBHOOK_TEST');
  });
});
