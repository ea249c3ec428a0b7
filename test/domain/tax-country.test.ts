import { lacksTaxCountry } from '../../domain/tax-country';

describe('lacksTaxCountry', () => {
  const taxable = { tax: { taxability: 'TAXABLE' }, address: { line1: '1 Main St' } };

  it('only a TAXABLE customer with no address country, charged tax, lacks one', () => {
    expect(lacksTaxCountry(taxable, true)).toBe(true);
    expect(lacksTaxCountry({ ...taxable, address: null }, true)).toBe(true);
    expect(lacksTaxCountry(taxable, false)).toBe(false);
    expect(lacksTaxCountry({ ...taxable, address: { country: 'DE' } }, true)).toBe(false);
    expect(lacksTaxCountry({ ...taxable, tax: { taxability: 'EXEMPT' } }, true)).toBe(false);
  });
});
