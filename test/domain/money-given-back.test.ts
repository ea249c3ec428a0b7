import { moneyGivenBack } from '../../domain/money-given-back';

const note = (parts: { refundId?: string; refund?: number; balance?: number; outOfBand?: number }) => ({
  refundId: parts.refundId ?? null,
  refundAmount: parts.refund ?? 0,
  balanceCreditAmount: parts.balance ?? 0,
  outOfBandAmount: parts.outOfBand ?? 0,
});

/** A PAID invoice the card paid in full. */
const card = (amountPaid: number) => ({ amountPaid, balanceApplied: 0, paid: true });

describe('moneyGivenBack', () => {
  it('is everything paid while nothing was given back', () => {
    expect(moneyGivenBack({ ...card(7_331), refunds: [], issuedNotes: [] })).toEqual({ givenBack: 0, left: 7_331, refundable: 7_331 });
  });

  it('counts a note split between a refund and the balance once each: the issue’s 7,331 with 500 + 500 leaves 6,331', () => {
    const state = { ...card(7_331), refunds: [{ id: 'rfnd_1', amount: 500, status: 'SUCCEEDED' }], issuedNotes: [note({ refundId: 'rfnd_1', refund: 500, balance: 500 })] };
    expect(moneyGivenBack(state)).toEqual({ givenBack: 1_000, left: 6_331, refundable: 6_331 });
  });

  it('leaves nothing once the whole payment went to the customer balance', () => {
    expect(moneyGivenBack({ ...card(7_331), refunds: [], issuedNotes: [note({ balance: 7_331 })] })).toEqual({ givenBack: 7_331, left: 0, refundable: 0 });
  });

  it('adds direct refunds, out-of-band parts and proration notes, and skips FAILED direct refunds', () => {
    const state = {
      ...card(10_000),
      refunds: [
        { id: 'rfnd_direct', amount: 1_200, status: 'SUCCEEDED' },
        { id: 'rfnd_pending', amount: 300, status: 'PENDING' },
        { id: 'rfnd_failed', amount: 2_000, status: 'FAILED' },
        { id: 'rfnd_proration', amount: 900, status: 'SUCCEEDED' },
      ],
      issuedNotes: [note({ outOfBand: 1_000 }), note({ refundId: 'rfnd_proration', refund: 900 })],
    };
    expect(moneyGivenBack(state)).toEqual({ givenBack: 1_200 + 300 + 1_000 + 900, left: 6_600, refundable: 6_600 });
  });

  it('keeps a note’s FAILED refund counted: the issued note still says it was given back', () => {
    const state = { ...card(5_000), refunds: [{ id: 'rfnd_1', amount: 2_000, status: 'FAILED' }], issuedNotes: [note({ refundId: 'rfnd_1', refund: 2_000 })] };
    expect(moneyGivenBack(state)).toEqual({ givenBack: 2_000, left: 3_000, refundable: 3_000 });
  });

  it('never leaves a negative amount over records that already gave back more than was paid', () => {
    const state = { ...card(7_331), refunds: [{ id: 'rfnd_1', amount: 7_331, status: 'SUCCEEDED' }], issuedNotes: [note({ balance: 7_331 })] };
    expect(moneyGivenBack(state)).toEqual({ givenBack: 14_662, left: 0, refundable: 0 });
  });

  it('counts the balance a PAID invoice consumed as paid, but never as refundable', () => {
    const balancePaid = { amountPaid: 0, balanceApplied: 1_400, paid: true, refunds: [], issuedNotes: [note({ balance: 300 })] };
    expect(moneyGivenBack(balancePaid)).toEqual({ givenBack: 300, left: 1_100, refundable: 0 });
  });

  it('splits a mixed payment: the card gets back at most what it paid, the balance the rest', () => {
    const mixed = { amountPaid: 400, balanceApplied: 1_000, paid: true, refunds: [{ id: 'rfnd_1', amount: 400, status: 'SUCCEEDED' }], issuedNotes: [] };
    expect(moneyGivenBack(mixed)).toEqual({ givenBack: 400, left: 1_000, refundable: 0 });
    const creditedFirst = { ...mixed, refunds: [], issuedNotes: [note({ balance: 1_200 })] };
    expect(moneyGivenBack(creditedFirst)).toEqual({ givenBack: 1_200, left: 200, refundable: 200 });
  });

  it('counts no balance of an invoice not PAID (voiding it gives the balance back) nor a debit (amount_paid holds it)', () => {
    expect(moneyGivenBack({ amountPaid: 0, balanceApplied: 1_000, paid: false, refunds: [], issuedNotes: [] })).toEqual({ givenBack: 0, left: 0, refundable: 0 });
    expect(moneyGivenBack({ amountPaid: 1_500, balanceApplied: -500, paid: true, refunds: [], issuedNotes: [] })).toEqual({ givenBack: 0, left: 1_500, refundable: 1_500 });
  });
});
