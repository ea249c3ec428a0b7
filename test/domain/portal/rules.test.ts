import { collectionInstrumentOf } from '../../../domain/collection-instrument';
import { customerMayUndoCancellation, forbiddenLineChange, instrumentsInUse } from '../../../domain/portal/rules';
import { DEFAULT_PORTAL_SETTINGS, portalCancelMode, portalSettingsOf } from '../../../domain/portal/settings';

describe('the customer portal’s rules (docs/portal.md)', () => {
  const settings = { ...DEFAULT_PORTAL_SETTINGS, quantity_changes: true, switchable_price_ids: ['basic', 'pro'] };

  it('allows a quantity only with quantity_changes, and a price only between two listed prices', () => {
    expect(forbiddenLineChange(DEFAULT_PORTAL_SETTINGS, 'basic', { quantity: 2 })).toBe('quantity_changes');
    expect(forbiddenLineChange(settings, 'basic', { quantity: 2 })).toBeNull();
    expect(forbiddenLineChange(settings, 'basic', { productPriceId: 'pro' })).toBeNull();
    expect(forbiddenLineChange(settings, 'basic', { productPriceId: 'enterprise' })).toBe('switchable_price_ids');
    // A line on a price the merchant did not list stays where it is.
    expect(forbiddenLineChange(settings, 'legacy', { productPriceId: 'pro' })).toBe('switchable_price_ids');
    expect(forbiddenLineChange(settings, 'legacy', { productPriceId: 'legacy', quantity: 3 })).toBeNull();
  });

  it('lets a customer undo only a cancellation they asked for', () => {
    expect(customerMayUndoCancellation({ requested_by: 'CUSTOMER' })).toBe(true);
    expect(customerMayUndoCancellation({})).toBe(false);
    expect(customerMayUndoCancellation(null)).toBe(false);
  });

  it('counts a card as needed when a live subscription’s collection would charge it', () => {
    const active = { id: 'pi_a', status: 'ACTIVE' };
    const expired = { id: 'pi_x', status: 'EXPIRED' };
    expect(collectionInstrumentOf(active, 'pi_d')).toBe('pi_a');
    expect(collectionInstrumentOf(expired, 'pi_d')).toBe('pi_d');
    expect(collectionInstrumentOf(expired, undefined)).toBe('pi_x');
    expect(collectionInstrumentOf(null, undefined)).toBeUndefined();
    const needs = instrumentsInUse(
      [
        { id: 'subs_1', paymentInstrument: active },
        { id: 'subs_2', paymentInstrument: expired },
        { id: 'subs_3', paymentInstrument: null },
      ],
      'pi_d',
    );
    expect(Object.fromEntries(needs)).toEqual({ pi_a: ['subs_1'], pi_d: ['subs_2', 'subs_3'] });
  });

  it('reads stored settings leniently and maps the cancellation setting to a subscriptions/cancel mode', () => {
    expect(portalSettingsOf(null)).toEqual(DEFAULT_PORTAL_SETTINGS);
    expect(portalSettingsOf({ cancellation: 'SOMETIMES', quantity_changes: 'yes', switchable_price_ids: ['a', 3] })).toEqual({
      ...DEFAULT_PORTAL_SETTINGS,
      switchable_price_ids: ['a'],
    });
    expect(portalCancelMode({ ...DEFAULT_PORTAL_SETTINGS, cancellation: 'NEVER' })).toBeNull();
    expect(portalCancelMode({ ...DEFAULT_PORTAL_SETTINGS, cancellation: 'IMMEDIATELY' })).toBe('IMMEDIATELY');
    expect(portalCancelMode(DEFAULT_PORTAL_SETTINGS)).toBe('PERIOD_END');
  });
});
