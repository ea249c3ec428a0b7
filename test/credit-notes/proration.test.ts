import { refundProrationCredit } from '../../services/subscriptions/proration-refund';
import { usePlatform } from '../support/platform';
import { creditNoteEvents, creditNoteMerchant } from './fixtures';

const platform = usePlatform();

it('a proration credit refunded to the card gets a credit note per refund, once however often it is retried', async () => {
  const m = creditNoteMerchant(platform);
  const older = await m.paidInvoice(1_000);
  const newer = await m.paidInvoice(600);
  // Both bill one subscription (its workflow would have issued them).
  const subscriptionId = 'subs_credit_note_proration';
  await platform.db.invoice.updateMany({ where: { id: { in: [older.invoice.id, newer.invoice.id] } }, data: { subscriptionId } });

  const credit = { subscriptionId, key: 'proration/7', credit: { amount: 900, description: 'Proration credit of 1 line item change (test)' } };
  const first = await refundProrationCredit({ db: platform.db, now: () => new Date() }, credit);
  expect(first.refunded).toBe(900);
  const again = await refundProrationCredit({ db: platform.db, now: () => new Date() }, credit);
  expect(again.refundIds).toEqual(first.refundIds);

  const notes = await platform.db.creditNote.findMany({ where: { origin: 'PRORATION' }, orderBy: { number: 'asc' } });
  const refunds = await platform.db.refund.findMany({ where: { id: { in: first.refundIds } } });
  expect(notes.map((note) => [note.invoiceId, note.refundId, note.refundAmount, note.totalAmount])).toEqual(
    refunds.map((refund) => [refund.invoiceId, refund.id, refund.amount, refund.amount]),
  );
  expect(notes.map((note) => note.invoiceId)).toEqual([newer.invoice.id, older.invoice.id]);
  const newest = await m.ok('credit-notes/get', { id: notes[0]!.id });
  expect(newest).toMatchObject({
    origin: 'PRORATION',
    reason: 'ORDER_CHANGE',
    memo: credit.credit.description,
    status: 'ISSUED',
    total_amount: 600,
    pre_payment_amount: 0,
    refund_amount: 600,
    refund_id: notes[0]!.refundId,
  });
  expect((await creditNoteEvents(platform)).filter((e) => (e.data as { credit_note: { origin: string } }).credit_note.origin === 'PRORATION')).toHaveLength(2);

  // What the proration gave back counts: the older invoice has 700 of its 1,000 left to credit.
  const refused = await m.call('create', { invoice_id: older.invoice.id, amount: 701, reason: 'OTHER', out_of_band_amount: 701 });
  expect(refused.body).toMatchObject({ code: 'CREDIT_NOTE_EXCEEDS_INVOICE', context: { post_payment_creditable: 700 } });
  // What the platform gave back on its own stands.
  expect((await m.call('void', { id: newest.id })).body).toMatchObject({ code: 'CREDIT_NOTE_NOT_VOIDABLE', context: { reason: 'AUTOMATIC', origin: 'PRORATION' } });
});
