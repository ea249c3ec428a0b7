import { router } from '../trpc';

export const paymentInstrumentsRouter = router({});
