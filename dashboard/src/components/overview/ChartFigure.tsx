import { lazy, Suspense, useState } from 'react';
import type { ChartPoint } from './chartPoint';

/** Recharts is the largest dependency: the charts load after the page, on their own. */
const BarsChart = lazy(async () => ({ default: (await import('./OverviewCharts')).BarsChart }));
const LinesChart = lazy(async () => ({ default: (await import('./OverviewCharts')).LinesChart }));

/**
 * A chart with its numbers as a table: always there for screen readers, shown to anyone on
 * request. With nothing to draw, the figure says so in words instead of an empty chart.
 */
export function ChartFigure(props: { id: string; title: string; kind: 'amount-bars' | 'count-bars' | 'line'; columns: [string, string]; points: ChartPoint[]; empty?: string }) {
  const { id, title, kind, columns, points, empty } = props;
  const [tableShown, setTableShown] = useState(false);
  return (
    <figure className="usage" aria-labelledby={`${id}-title`} data-testid={id}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      {empty !== undefined ? (
        <p className="hint">{empty}</p>
      ) : (
        <>
          <Suspense fallback={<p role="status">Loading the chart…</p>}>
            {kind === 'line' ? (
              <LinesChart title={title} name={columns[1]} points={points} />
            ) : (
              <BarsChart title={title} name={columns[1]} points={points} counts={kind === 'count-bars'} />
            )}
          </Suspense>
          <button type="button" aria-pressed={tableShown} onClick={() => setTableShown(!tableShown)}>
            Show the numbers<span className="visually-hidden"> of {title}</span>
          </button>
          {/* A table ignores a width below its content's, so the box that hides it is a div. */}
          <div className={tableShown ? undefined : 'visually-hidden'}>
            <table data-testid={`${id}-table`}>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{columns[0]}</th>
                  <th scope="col">{columns[1]}</th>
                </tr>
              </thead>
              <tbody>
                {points.map((point) => (
                  <tr key={point.label}>
                    <td>{point.label}</td>
                    <td>{point.text}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}
