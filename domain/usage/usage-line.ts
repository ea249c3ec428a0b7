import type { Aggregation } from './meters';

/** What one tier of a usage price charged (domain/usage/pricing.ts), as the invoice line shows it. */
export interface UsageTierDetail {
  tier: number;
  from: string;
  up_to: string | null;
  quantity: string;
  unit_amount_decimal: string;
  flat_amount: number;
  /** Exact, before the line's one rounding; minor units. */
  amount_decimal: string;
  packages?: number;
}

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
  tiers: UsageTierDetail[];
  previously_billed?: { quantity: string; amount: number };
}
