/** One bar: its axis label, the span it covers in words, the exact decimal and the number drawn. */
export interface UsagePoint {
  label: string;
  span: string;
  quantity: string;
  value: number;
}
