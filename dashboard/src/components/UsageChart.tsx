import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsagePoint } from './usagePoint';

const INK = '#1b1f24';
const MUTED = '#4a5462';

/**
 * The bars of one meter's usage, drawn by Recharts (its own chunk, loaded by the customer page
 * only). Recharts' accessibility layer makes the chart one Tab stop whose arrow keys walk the bars
 * with the tooltip; the exact numbers are in the figure's table (UsageFigure).
 */
export function UsageChart({ title, points }: { title: string; points: UsagePoint[] }) {
  return (
    <BarChart responsive style={{ width: '100%', height: 240 }} data={points} title={title} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
      <CartesianGrid stroke="#d9dee5" vertical={false} />
      <XAxis dataKey="label" stroke={MUTED} tick={{ fill: INK, fontSize: 12 }} />
      <YAxis stroke={MUTED} tick={{ fill: INK, fontSize: 12 }} allowDecimals width={64} />
      <Tooltip
        formatter={(_value, _name, item) => [(item.payload as UsagePoint).quantity, 'Quantity']}
        labelFormatter={(_label, items) => (items[0]?.payload as UsagePoint | undefined)?.span ?? ''}
        contentStyle={{ color: INK }}
      />
      <Bar dataKey="value" name="Quantity" fill="#0b57b0" isAnimationActive={false} />
    </BarChart>
  );
}
