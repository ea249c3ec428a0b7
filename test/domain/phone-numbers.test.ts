import { storedPhoneNumber } from '../../domain/phone-numbers';

describe('storedPhoneNumber', () => {
  it.each([
    ['+12125550123', undefined, '+12125550123'],
    ['+1 212-555-0123', undefined, '+12125550123'],
    ['+1 (212) 555-0123', 'DEU', '+12125550123'],
    ['+1.212.555.0123', undefined, '+12125550123'],
    ['  +44 20 7123 4567 ', undefined, '+442071234567'],
    ['+44 (0)20 7946 0958', undefined, '+442079460958'],
    ['+49 (30) 123 456', undefined, '+4930123456'],
    ['+49/30/123456', undefined, '+4930123456'],
    ['+33\u00a01\u00a023\u00a045\u00a067\u00a089', undefined, '+33123456789'],
    ['030 1234567', 'DEU', '+49301234567'],
    ['(212) 555-0123', 'USA', '+12125550123'],
    ['0044 20 7123 4567', 'DEU', '+442071234567'],
    ['07911 123456', 'GBR', '+447911123456'],
  ])('writes %p (address country %p) as %p', (written, country, expected) => {
    expect(storedPhoneNumber(written, country)).toBe(expected);
  });

  it.each([
    ['030 1234567', undefined],
    ['01574824325', 'DEU'],
    ['5551234567', 'USA'],
    ['+1 555-123-4567', undefined],
    ['+123456789012345', undefined],
    ['+1 555 CALL NOW', undefined],
    ['+1 212-555-0123 ext. 12', undefined],
    ['+1 (555 123-4567', undefined],
    ['++15551234567', undefined],
    ['call the office', 'FRA'],
    ['030 1234567', 'XXX'],
  ])('keeps %p (address country %p) as written', (written, country) => {
    expect(storedPhoneNumber(`  ${written}\t`, country)).toBe(written);
  });
});
