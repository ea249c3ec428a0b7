import type { ActivityDependencies } from '.';
import { expirePaymentInstrument } from '../services/payment-instruments/expire';

export interface ExpirePaymentInstrumentInput {
  paymentInstrumentId: string;
  /** The end of the expiry month (ISO 8601): the moment recorded as `expired_at`. */
  expiresAt: string;
}

export function createPaymentInstrumentActivities({ db }: ActivityDependencies) {
  return {
    async expirePaymentInstrument({ paymentInstrumentId, expiresAt }: ExpirePaymentInstrumentInput): Promise<{ expired: boolean }> {
      return { expired: await expirePaymentInstrument({ db }, paymentInstrumentId, new Date(expiresAt)) };
    },
  };
}
