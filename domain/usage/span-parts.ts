/**
 * How a read of usage over any span [from, to) (epoch ms) splits into what is stored for it
 * (docs/usage.md, "Reading usage"): the whole UTC hours inside it from the hour roll-ups, the
 * whole minutes left at either side from the minute roll-ups, and the sub-minute slices at its
 * ends from the raw events. The parts do not overlap and together cover the span exactly.
 */
export interface Range {
  from: number;
  to: number;
}

export interface SpanParts {
  /** Every whole minute of the span, [first, last): the hours and minutes below together. */
  wholeMinutes: Range | null;
  hours: Range[];
  minutes: Range[];
  raw: Range[];
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

const floorTo = (at: number, unit: number) => Math.floor(at / unit) * unit;
const ceilTo = (at: number, unit: number) => Math.ceil(at / unit) * unit;
const nonEmpty = (ranges: Range[]) => ranges.filter((range) => range.from < range.to);

export function spanParts(from: number, to: number): SpanParts {
  if (to <= from) return { wholeMinutes: null, hours: [], minutes: [], raw: [] };
  const firstMinute = ceilTo(from, MINUTE_MS);
  const lastMinute = floorTo(to, MINUTE_MS);
  if (firstMinute >= lastMinute) return { wholeMinutes: null, hours: [], minutes: [], raw: [{ from, to }] };
  const wholeMinutes = { from: firstMinute, to: lastMinute };
  const raw = nonEmpty([
    { from, to: firstMinute },
    { from: lastMinute, to },
  ]);
  const firstHour = ceilTo(firstMinute, HOUR_MS);
  const lastHour = floorTo(lastMinute, HOUR_MS);
  if (firstHour >= lastHour) return { wholeMinutes, hours: [], minutes: [wholeMinutes], raw };
  return {
    wholeMinutes,
    hours: [{ from: firstHour, to: lastHour }],
    minutes: nonEmpty([
      { from: firstMinute, to: firstHour },
      { from: lastHour, to: lastMinute },
    ]),
    raw,
  };
}
