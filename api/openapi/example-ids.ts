/**
 * Ids the request examples name, each with its kind's prefix (domain/ids.ts): one customer, one
 * invoice, one subscription… across every operation, so the examples read as one story.
 */
export const EXAMPLE_IDS = {
  channel: 'chn_01jdv3q8m2k7r4t9w6x5y0z1ab',
  apiKey: 'akey_01jdv3r1c5n8p2s6v9x3z7b4cd',
  customer: 'cust_01jdv3s4e7g1j5m8q2t6w0y3ef',
  paymentInstrument: 'pi_01jdv3t7h0k4n7r1v5y9a2c6gh',
  invoice: 'inv_01jdv3v0j3m6q0t4x8b1e5h9jk',
  invoiceLineItem: 'ili_01jdv3w3m6p9s3w7a0d4g8k2mn',
  subscription: 'subs_01jdv3x6p9r2v6z0c3f7j1m5pq',
  subscriptionLineItem: 'slit_01jdv3y9r2t5x9b3e6h0m4q8rs',
  creditNote: 'cn_01jdv3zct5w8a2e5h9k3p7s1tv',
  routingConfig: 'rcfg_01jdv40fw8z1c5g8k2n6s0v4wx',
  routingConfigVersion: 'rcv_01jdv41hz1b4f7j1n5r9v3y7yz',
  webhookEndpoint: 'whep_01jdv42kb4e7h0m4q8t2y6a0b2',
  event: 'evt_01jdv43nd7g0k3p7s1w5a9d3c4',
  report: 'rprt_01jdv44qf0j3n6r0v4z8c2f6d5',
  settlement: 'sttl_01jdv45sh3m6q9t3y7b1e5h9e6',
  legalEntity: 'le_01jdv46vk6p9s2w6a0d4h8k2f7',
  meter: 'mtr_01jdv49bq5w8c1h5m9r3t7x1j0',
  /** Antifraud lists and items carry bare ULIDs (section 1 item 7). */
  antifraudList: '01JDV47XM9R2V5Z9C3G7K1N5G8',
  antifraudListItem: '01JDV48ZP2T5Y8B2F6J0N4Q8H9',
  /** Products, prices and coupons carry UUIDs (section 1 item 7). */
  product: '0193719c-4e2a-7b10-9c3d-5f6a7b8c9d01',
  productPrice: '0193719c-5a3b-7c21-8d4e-6a7b8c9d0e12',
  coupon: '0193719c-6b4c-7d32-9e5f-7b8c9d0e1f23',
} as const;
