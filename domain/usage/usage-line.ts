import type { Aggregation } from './meters';
import type { TierCharge } from './pricing';

/**
 * The `usage` extension of an invoice line (docs/usage.md, "Invoices"): which meter and period
 * it bills, the quantity, and how the price's tiers made the amount. An ADJUSTMENT line bills
 * what late events added to a period an earlier invoice billed: `previously_billed` is what that
 * invoice (and any adjustment since) charged, the line the difference.
 */
export interface UsageLineDetail {
  kind: 'PERIOD' | 'ADJUSTMENT';
  meter_id: string;
  aggregation: Aggregation;
  period: { start_at: string; end_at: string };
  /** Decimal string: the period's whole quantity as measured now. */
  quantity: string;
  /** What each tier of the price charged (pricing.ts). */
  tiers: TierCharge[];
  previously_billed?: { quantity: string; amount: number };
}
