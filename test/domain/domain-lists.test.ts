import { BILLING_TYPES } from '../../domain/billing-types';
import { TAX_MODES } from '../../domain/invoice-amounts';
import { EXHAUSTION_ACTIONS } from '../../domain/subscriptions/state';
import { lineTaxRequest } from '../../api/invoices/schemas';
import { billingType } from '../../api/product-prices/schemas';
import { settingsRequest, subscriptionLineRequest } from '../../api/subscriptions/schemas';

describe('request enums come from the domain lists', () => {
  it('billing types, tax modes and exhaustion actions', () => {
    expect(billingType.options).toEqual([...BILLING_TYPES]);
    expect(lineTaxRequest.shape.mode.options).toEqual([...TAX_MODES]);
    expect(subscriptionLineRequest.shape.tax.unwrap().shape.mode.options).toEqual([...TAX_MODES]);
    expect(settingsRequest.shape.on_dunning_exhausted.unwrap().options).toEqual([...EXHAUSTION_ACTIONS]);
  });
});
