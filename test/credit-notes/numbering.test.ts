import { nextCreditNoteNumber } from '../../services/credit-notes/number';
import { usePlatform } from '../support/platform';
import { creditNoteMerchant } from './fixtures';

const platform = usePlatform();

it('numbers credit notes per account 1, 2, 3… without gaps, also when many are created at once and some are refused', async () => {
  const m = creditNoteMerchant(platform);
  const customerId = await m.customer();
  const invoices = await Promise.all(Array.from({ length: 8 }, () => m.openInvoice(customerId, { amount: 1_000 })));
  // Three notes of 400 per invoice of 1,000: two fit, the third is refused, whatever the order.
  const answers = await Promise.all(
    invoices.flatMap((invoice) => [0, 1, 2].map(() => m.call('create', { invoice_id: invoice.id, amount: 400, reason: 'OTHER' }))),
  );
  expect(answers.filter((a) => a.status === 200)).toHaveLength(16);
  expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(Array(8).fill('CREDIT_NOTE_EXCEEDS_INVOICE'));
  const numbers = answers.filter((a) => a.status === 200).map((a) => a.body.number as number);
  expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  for (const invoice of invoices) {
    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).amountDue).toBe(200);
  }

  // Another account counts from 1 on its own.
  const other = await platform.db.account.create({ data: { id: 'acct_credit_note_numbering', name: 'Other' } });
  await platform.db.$transaction(async (tx) => {
    expect(await nextCreditNoteNumber(tx, other.id)).toBe(1);
  });
  expect(await platform.db.creditNoteSequence.findUniqueOrThrow({ where: { accountId: platform.accountId } })).toEqual({ accountId: platform.accountId, lastNumber: 16 });
});

it('gives a number back when the transaction that took it rolls back', async () => {
  const before = (await platform.db.creditNoteSequence.findUniqueOrThrow({ where: { accountId: platform.accountId } })).lastNumber;
  await expect(
    platform.db.$transaction(async (tx) => {
      await nextCreditNoteNumber(tx, platform.accountId);
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  const m = creditNoteMerchant(platform);
  const invoice = await m.openInvoice(await m.customer(), { amount: 100 });
  expect((await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 100, reason: 'OTHER' })).number).toBe(before + 1);
});
