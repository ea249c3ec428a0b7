import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from './chartPoint';

const INK = '#1b1f24';
const MUTED = '#4a5462';
const GRID = '#d9dee5';
const MARGIN = { top: 8, right: 16, bottom: 8, left: 8 };

/** The tooltip says a point's exact text (an amount in the currency's units), not the number drawn. */
function exactTooltip(name: string) {
  return (
    <Tooltip
      formatter={(_value, _name, item) => [(item.payload as ChartPoint).text, name]}
      labelFormatter={(label) => String(label)}
      contentStyle={{ color: INK }}
    />
  );
}

/**
 * The Overview's charts, drawn by Recharts in their own chunk (loaded after the page). Each chart
 * is one Tab stop whose arrow keys walk its points with the tooltip; the same numbers are in the
 * figure's table (ChartFigure).
 */
/** `counts`: the axis marks whole numbers only, as subscriptions come whole. */
export function BarsChart({ title, name, points, counts }: { title: string; name: string; points: ChartPoint[]; counts: boolean }) {
  return (
    <BarChart responsive style={{ width: '100%', height: 240 }} data={points} title={title} margin={MARGIN}>
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis dataKey="label" stroke={MUTED} tick={{ fill: INK, fontSize: 12 }} />
      <YAxis stroke={MUTED} tick={{ fill: INK, fontSize: 12 }} allowDecimals={!counts} width={72} />
      {exactTooltip(name)}
      <Bar dataKey="value" name={name} fill="#0b57b0" isAnimationActive={false} />
    </BarChart>
  );
}

export function LinesChart({ title, name, points }: { title: string; name: string; points: ChartPoint[] }) {
  return (
    <LineChart responsive style={{ width: '100%', height: 240 }} data={points} title={title} margin={MARGIN}>
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis dataKey="label" stroke={MUTED} tick={{ fill: INK, fontSize: 12 }} padding={{ left: 24, right: 24 }} />
      <YAxis stroke={MUTED} tick={{ fill: INK, fontSize: 12 }} allowDecimals width={72} />
      {exactTooltip(name)}
      <Line dataKey="value" name={name} stroke="#0b57b0" strokeWidth={2} dot isAnimationActive={false} />
    </LineChart>
  );
}
