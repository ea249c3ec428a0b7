import { selectRoute, type RouteTree } from '../../domain/routing';

const tree: RouteTree = {
  rules: [
    { name: 'eur-small', match: { currencies: ['EUR'], amount: { max: 1_000 } }, providers: ['sandbox-beta'] },
    { name: 'eur', match: { currencies: ['EUR', 'CHF'] }, providers: ['sandbox-alpha', 'sandbox-beta'] },
    { name: 'mid', match: { amount: { min: 5_000, max: 10_000 } }, providers: ['sandbox-beta', 'sandbox-alpha'] },
    { name: 'amex-in-usa', match: { card_brands: ['AMEX'], customer_countries: ['USA'] }, providers: ['sandbox-beta'] },
    { name: 'everything', match: {}, providers: ['sandbox-alpha'] },
  ],
  default_providers: ['sandbox-beta'],
};

const facts = { currency: 'USD', amount: 2_000, cardBrand: 'VISA', customerCountry: 'USA' };

describe('route tree matching', () => {
  it('takes the first matching rule, all conditions of a match together', () => {
    expect(selectRoute(tree, { ...facts, currency: 'EUR', amount: 999 }).rule).toBe('eur-small');
    expect(selectRoute(tree, { ...facts, currency: 'EUR', amount: 1_000 }).rule).toBe('eur');
    expect(selectRoute(tree, { ...facts, currency: 'CHF' })).toEqual({ rule: 'eur', providers: ['sandbox-alpha', 'sandbox-beta'] });
  });

  it('treats amount min as inclusive and max as exclusive', () => {
    expect(selectRoute(tree, { ...facts, amount: 4_999 }).rule).toBe('everything');
    expect(selectRoute(tree, { ...facts, amount: 5_000 }).rule).toBe('mid');
    expect(selectRoute(tree, { ...facts, amount: 9_999 }).rule).toBe('mid');
    expect(selectRoute(tree, { ...facts, amount: 10_000 }).rule).toBe('everything');
  });

  it('matches brand and country, and never a country rule without a customer country', () => {
    expect(selectRoute(tree, { ...facts, cardBrand: 'AMEX' }).rule).toBe('amex-in-usa');
    expect(selectRoute(tree, { ...facts, cardBrand: 'AMEX', customerCountry: 'CAN' }).rule).toBe('everything');
    expect(selectRoute(tree, { ...facts, cardBrand: 'AMEX', customerCountry: undefined }).rule).toBe('everything');
  });

  it('falls back to the default providers when no rule matches', () => {
    expect(selectRoute({ ...tree, rules: tree.rules.slice(0, 4) }, facts)).toEqual({ providers: ['sandbox-beta'] });
  });
});
