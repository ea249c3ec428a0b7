import { lazy, Suspense, useState } from 'react';
import type { UsagePoint } from './usagePoint';

/** The chart library is the customer page's largest dependency: it loads after the page, on its own. */
const UsageChart = lazy(async () => ({ default: (await import('./UsageChart')).UsageChart }));

/**
 * A meter's usage as a bar chart and, for screen readers always and for anyone on request, as a
 * table of the same exact quantities (the chart draws them as floating-point numbers).
 */
export function UsageFigure({ id, title, points }: { id: string; title: string; points: UsagePoint[] }) {
  const [tableShown, setTableShown] = useState(false);
  return (
    <figure className="usage" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      {points.every((point) => point.value === 0) ? <p className="hint">No usage in this span.</p> : null}
      <Suspense fallback={<p role="status">Loading the chart…</p>}>
        <UsageChart title={title} points={points} />
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
              <th scope="col">Span (UTC)</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.span}>
                <td>{point.span}</td>
                <td>{point.quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
