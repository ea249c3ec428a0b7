import { router } from '../trpc';
import { getPaymentInstrument } from './get';
import { listPaymentInstruments } from './list';
import { revokePaymentInstrument } from './revoke';
import { tokenizePaymentInstrument } from './tokenize';

export const paymentInstrumentsRouter = router({
  tokenize: tokenizePaymentInstrument,
  get: getPaymentInstrument,
  list: listPaymentInstruments,
  revoke: revokePaymentInstrument,
});
