import { router } from '../trpc';
import { attachPaymentInstrument } from './attach';
import { getPaymentInstrument } from './get';
import { listPaymentInstruments } from './list';
import { revokePaymentInstrument } from './revoke';
import { tokenizePaymentInstrument } from './tokenize';

export const paymentInstrumentsRouter = router({
  tokenize: tokenizePaymentInstrument,
  attach: attachPaymentInstrument,
  get: getPaymentInstrument,
  list: listPaymentInstruments,
  revoke: revokePaymentInstrument,
});
