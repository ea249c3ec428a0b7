/** What `npm run test:cluster` leaves in test-artifacts/cluster/summary.json for the recap: its fault counts, each of which must be 0. */
export interface ClusterSummary {
  passed: boolean;
  seconds: number;
  /** The Stripe phase's traffic, as the run prints it. */
  stripeTraffic: string;
  /** The usage phase's traffic, as the run prints it. */
  usageTraffic: string;
  mustBeZero: Record<string, number>;
}
