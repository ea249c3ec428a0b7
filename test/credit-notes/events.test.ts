import { startReceiver, waitFor, type TestReceiver } from '../webhooks/receiver';
import { usePlatform } from '../support/platform';
import { creditNoteMerchant } from './fixtures';

const platform = usePlatform();
let optedIn: TestReceiver;
let byDefault: TestReceiver;

beforeAll(async () => {
  [optedIn, byDefault] = await Promise.all([startReceiver(), startReceiver()]);
});

afterAll(async () => {
  await Promise.all([optedIn?.close(), byDefault?.close()]);
});

it('delivers CREDIT_NOTE_CREATED and CREDIT_NOTE_VOIDED only to endpoints that opted in', async () => {
  const m = creditNoteMerchant(platform);
  const everything = await m.ok('webhooks/create', { url: byDefault.url });
  expect(everything.event_types).not.toContain('CREDIT_NOTE_CREATED');
  expect(everything.event_types).not.toContain('CREDIT_NOTE_VOIDED');
  const credit = await m.ok('webhooks/create', { url: optedIn.url, event_types: ['CREDIT_NOTE_CREATED', 'CREDIT_NOTE_VOIDED', 'INVOICE_FINALIZED'] });
  byDefault.setSecrets([everything.secret]);
  optedIn.setSecrets([credit.secret]);
  await m.ok('webhooks/patch', { id: everything.id, status: 'ACTIVE' });
  await m.ok('webhooks/patch', { id: credit.id, status: 'ACTIVE' });

  const invoice = await m.openInvoice(await m.customer(), { amount: 3_000 });
  const note = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 1_000, reason: 'DUPLICATE' });
  await m.ok('credit-notes/void', { id: note.id });

  const received = await waitFor('the credit note events', () => {
    const types = optedIn.processed.map((event) => event.event_type);
    return types.includes('CREDIT_NOTE_VOIDED') && types.includes('CREDIT_NOTE_CREATED') && optedIn.processed;
  });
  const created = received.find((event) => event.event_type === 'CREDIT_NOTE_CREATED')!;
  expect(created.data).toMatchObject({ credit_note: { id: note.id, number: note.number, status: 'ISSUED' }, invoice: { id: invoice.id, amount_due: 2_000 } });
  const voided = received.find((event) => event.event_type === 'CREDIT_NOTE_VOIDED')!;
  expect(voided.data).toMatchObject({ credit_note: { id: note.id, status: 'VOIDED' }, invoice: { id: invoice.id, amount_due: 3_000 } });
  // The default endpoint got the invoice's events and none of the credit note's.
  await waitFor('the invoice events at the default endpoint', () => byDefault.processed.some((event) => event.event_type === 'INVOICE_FINALIZED'));
  expect(byDefault.processed.map((event) => event.event_type)).not.toContain('CREDIT_NOTE_CREATED');
  expect(await platform.db.webhookDelivery.count({ where: { endpointId: everything.id, eventType: { startsWith: 'CREDIT_NOTE_' } } })).toBe(0);
});
