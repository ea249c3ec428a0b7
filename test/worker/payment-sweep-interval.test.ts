import { paymentSweepSummary } from '../../domain/maintenance-summaries';
import { paymentSweepIntervalFromEnv } from '../../worker/payment-sweep-interval';

describe('PAYMENT_SWEEP_INTERVAL_MINUTES', () => {
  it('is 5 minutes unless set, and a whole number of minutes, at least 1, when set', () => {
    expect(paymentSweepIntervalFromEnv({})).toBe(5);
    expect(paymentSweepIntervalFromEnv({ PAYMENT_SWEEP_INTERVAL_MINUTES: '' })).toBe(5);
    expect(paymentSweepIntervalFromEnv({ PAYMENT_SWEEP_INTERVAL_MINUTES: '1' })).toBe(1);
    expect(paymentSweepIntervalFromEnv({ PAYMENT_SWEEP_INTERVAL_MINUTES: '30' })).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'soon', '5m']) {
      expect(() => paymentSweepIntervalFromEnv({ PAYMENT_SWEEP_INTERVAL_MINUTES: bad })).toThrow('PAYMENT_SWEEP_INTERVAL_MINUTES must be a whole number of minutes, at least 1');
    }
  });

  it('names the interval in the sweep workflow’s summary', () => {
    expect(paymentSweepSummary(1)).toBe('Finish abandoned manual pays and refunds every minute');
    expect(paymentSweepSummary(5)).toBe('Finish abandoned manual pays and refunds every 5 minutes');
  });
});
