import { fc, it } from '@fast-check/jest';
import { divideHalfUp } from '../../domain/rounding';
import { formatDecimal, parseDecimal } from '../../domain/usage/decimal';
import { priceUsage, UsageChargeTooLarge, type UsageModel, type UsageTier } from '../../domain/usage/pricing';

const units = (text: string) => parseDecimal(text)!;
/** An amount_decimal (10^-24) as a bigint. */
const exact = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 10n ** 24n + BigInt(fraction.padEnd(24, '0'));
};

const TIERS: UsageTier[] = [
  { up_to: 1000, unit_amount_decimal: '0.5', flat_amount: 0 },
  { up_to: 10000, unit_amount_decimal: '0.25', flat_amount: 100 },
  { up_to: null, unit_amount_decimal: '0.1', flat_amount: 0 },
];
const graduated: UsageModel = { model: 'GRADUATED', tiers: TIERS };
const volume: UsageModel = { model: 'VOLUME', tiers: TIERS };

describe('priceUsage', () => {
  it('PER_UNIT: quantity × unit amount, exact, rounded half up once', () => {
    const perUnit: UsageModel = { model: 'PER_UNIT', unit_amount_decimal: '0.05' };
    expect(priceUsage(perUnit, units('12345'))).toEqual({
      amount: 617,
      tiers: [{ tier: 1, from: '0', up_to: null, quantity: '12345', unit_amount_decimal: '0.05', flat_amount: 0, amount_decimal: '617.25' }],
    });
    expect(priceUsage(perUnit, units('12350')).amount).toBe(618);
    expect(priceUsage({ model: 'PER_UNIT', unit_amount_decimal: '3' }, units('2.5')).amount).toBe(8);
    // 0.5 × 10^-12 is kept to the 10^-24 it is, not cut to the quantity's scale.
    const tiny = priceUsage({ model: 'PER_UNIT', unit_amount_decimal: '0.000000000001' }, units('0.5'));
    expect(tiny).toMatchObject({ amount: 0, tiers: [{ amount_decimal: '0.0000000000005' }] });
    // Beyond 2^53 at the scale, still exact: 10^20 units at 10^-12 is 10^8.
    expect(priceUsage({ model: 'PER_UNIT', unit_amount_decimal: '0.000000000001' }, 10n ** 32n).amount).toBe(100_000_000);
  });

  it('PACKAGE: every started package charged whole', () => {
    const pack: UsageModel = { model: 'PACKAGE', package_size: 100, package_amount: 500 };
    const packages = (quantity: string) => priceUsage(pack, units(quantity));
    expect(packages('0')).toEqual({
      amount: 0,
      tiers: [{ tier: 1, from: '0', up_to: null, quantity: '0', unit_amount_decimal: '500', flat_amount: 0, amount_decimal: '0', packages: 0 }],
    });
    expect(packages('1')).toMatchObject({ amount: 500, tiers: [{ packages: 1, quantity: '1' }] });
    expect(packages('100')).toMatchObject({ amount: 500, tiers: [{ packages: 1 }] });
    expect(packages('100.000000000001')).toMatchObject({ amount: 1000, tiers: [{ packages: 2, quantity: '100.000000000001' }] });
    expect(packages('250')).toMatchObject({ amount: 1500, tiers: [{ packages: 3, amount_decimal: '1500' }] });
  });

  it('GRADUATED: each tier charges the units inside it, and its flat amount once it has any', () => {
    expect(priceUsage(graduated, units('0'))).toEqual({
      amount: 0,
      tiers: [{ tier: 1, from: '0', up_to: '1000', quantity: '0', unit_amount_decimal: '0.5', flat_amount: 0, amount_decimal: '0' }],
    });
    expect(priceUsage(graduated, units('1000'))).toMatchObject({ amount: 500, tiers: [{ tier: 1, quantity: '1000' }] });
    expect(priceUsage(graduated, units('1001'))).toMatchObject({
      amount: 600,
      tiers: [{ quantity: '1000', amount_decimal: '500' }, { tier: 2, from: '1000', quantity: '1', flat_amount: 100, amount_decimal: '100.25' }],
    });
    expect(priceUsage(graduated, units('12345'))).toEqual({
      amount: 3085,
      tiers: [
        { tier: 1, from: '0', up_to: '1000', quantity: '1000', unit_amount_decimal: '0.5', flat_amount: 0, amount_decimal: '500' },
        { tier: 2, from: '1000', up_to: '10000', quantity: '9000', unit_amount_decimal: '0.25', flat_amount: 100, amount_decimal: '2350' },
        { tier: 3, from: '10000', up_to: null, quantity: '2345', unit_amount_decimal: '0.1', flat_amount: 0, amount_decimal: '234.5' },
      ],
    });
  });

  it('rounds the line once, not each tier', () => {
    const split: UsageModel = { model: 'GRADUATED', tiers: [{ up_to: 1, unit_amount_decimal: '0.4', flat_amount: 0 }, { up_to: null, unit_amount_decimal: '0.4', flat_amount: 0 }] };
    // 0.4 + 0.4 = 0.8 → 1; rounding each tier would give 0 + 0.
    expect(priceUsage(split, units('2')).amount).toBe(1);
  });

  it('VOLUME: every unit at the price of the tier the total lands in, plus that tier’s flat amount', () => {
    expect(priceUsage(volume, units('1000'))).toMatchObject({ amount: 500, tiers: [{ tier: 1, quantity: '1000' }] });
    expect(priceUsage(volume, units('1001'))).toEqual({
      amount: 350,
      tiers: [{ tier: 2, from: '1000', up_to: '10000', quantity: '1001', unit_amount_decimal: '0.25', flat_amount: 100, amount_decimal: '350.25' }],
    });
    expect(priceUsage(volume, units('12345'))).toMatchObject({ amount: 1235, tiers: [{ tier: 3, amount_decimal: '1234.5' }] });
    // No units, no charge: 0 lands in the first tier without its flat amount.
    const flatFirst: UsageModel = { model: 'VOLUME', tiers: [{ up_to: 10, unit_amount_decimal: '1', flat_amount: 999 }, { up_to: null, unit_amount_decimal: '0', flat_amount: 0 }] };
    expect(priceUsage(flatFirst, units('0'))).toMatchObject({ amount: 0, tiers: [{ tier: 1, quantity: '0', flat_amount: 0, amount_decimal: '0' }] });
    expect(priceUsage(flatFirst, units('0.5'))).toMatchObject({ amount: 1000, tiers: [{ tier: 1, flat_amount: 999, amount_decimal: '999.5' }] });
  });

  it('bills a quantity below zero (a MAX or LATEST meter) as no units', () => {
    expect(priceUsage(graduated, units('-5'))).toEqual(priceUsage(graduated, 0n));
    expect(priceUsage({ model: 'PACKAGE', package_size: 10, package_amount: 7 }, units('-5')).amount).toBe(0);
  });

  it('refuses a line above the invoice’s 32-bit amounts instead of wrapping', () => {
    const one: UsageModel = { model: 'PER_UNIT', unit_amount_decimal: '1' };
    expect(priceUsage(one, units('2147483647')).amount).toBe(2_147_483_647);
    expect(priceUsage(one, units('2147483647.4')).amount).toBe(2_147_483_647);
    expect(() => priceUsage(one, units('2147483647.5'))).toThrow(UsageChargeTooLarge);
    let refusal: unknown;
    try {
      priceUsage({ model: 'PER_UNIT', unit_amount_decimal: '999999999' }, units('3'));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(UsageChargeTooLarge);
    expect((refusal as UsageChargeTooLarge).context).toEqual({ amount_decimal: '2999999997', max_amount: 2_147_483_647 });
    expect(() => priceUsage({ model: 'PACKAGE', package_size: 1, package_amount: 0 }, 10n ** 16n * 10n ** 12n)).toThrow(UsageChargeTooLarge);
  });
});

describe('priceUsage, properties', () => {
  const price = fc.bigInt({ min: 0n, max: 100n * 10n ** 12n }).map(formatDecimal);
  const quantity = fc.bigInt({ min: 0n, max: 1_000_000n * 10n ** 12n });
  const tiers = fc
    .uniqueArray(fc.integer({ min: 1, max: 2_000_000 }), { maxLength: 9 })
    .chain((bounds) =>
      fc.tuple(
        ...[...bounds.sort((a, b) => a - b), null].map((up_to) =>
          fc.record({ up_to: fc.constant(up_to), unit_amount_decimal: price, flat_amount: fc.integer({ min: 0, max: 1000 }) }),
        ),
      ),
    );
  const single = fc.record({ up_to: fc.constant(null), unit_amount_decimal: price, flat_amount: fc.integer({ min: 0, max: 1000 }) });
  const monotonicModel: fc.Arbitrary<UsageModel> = fc.oneof(
    price.map((unit_amount_decimal) => ({ model: 'PER_UNIT' as const, unit_amount_decimal })),
    fc.record({ model: fc.constant('PACKAGE' as const), package_size: fc.integer({ min: 1, max: 5000 }), package_amount: fc.integer({ min: 0, max: 1000 }) }),
    tiers.map((t) => ({ model: 'GRADUATED' as const, tiers: t })),
  );

  it.prop([tiers, quantity])('GRADUATED: the total is the sum of the tiers’ charges, rounded once, and they cover the quantity', (t, q) => {
    const charged = priceUsage({ model: 'GRADUATED', tiers: t }, q);
    const sum = charged.tiers.reduce((total, tier) => total + exact(tier.amount_decimal), 0n);
    expect(charged.amount).toBe(Number(divideHalfUp(sum, 10n ** 24n)));
    expect(charged.tiers.reduce((total, tier) => total + units(tier.quantity), 0n)).toBe(q);
    expect(charged.tiers.map((tier) => tier.tier)).toEqual(charged.tiers.map((_, index) => index + 1));
  });

  it.prop([single, quantity])('VOLUME and GRADUATED agree on a single tier', (tier, q) => {
    expect(priceUsage({ model: 'VOLUME', tiers: [tier] }, q)).toEqual(priceUsage({ model: 'GRADUATED', tiers: [tier] }, q));
  });

  it.prop([price, quantity])('PER_UNIT is round half up (domain/rounding.ts) of quantity × unit amount', (p, q) => {
    expect(priceUsage({ model: 'PER_UNIT', unit_amount_decimal: p }, q).amount).toBe(Number(divideHalfUp(q * units(p), 10n ** 24n)));
  });

  it.prop([monotonicModel, quantity, quantity])('PER_UNIT, PACKAGE and GRADUATED never charge less for more', (model, a, b) => {
    const [low, high] = a <= b ? [a, b] : [b, a];
    expect(priceUsage(model, low).amount).toBeLessThanOrEqual(priceUsage(model, high).amount);
  });
});
