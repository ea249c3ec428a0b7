import type { ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage';
import type { Paged } from './usePaged';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

/** A captioned table of one page and the Previous / Next buttons that walk the cursor. */
export function PagedTable<T>({ caption, columns, paged, rowKey, empty }: {
  caption: string;
  columns: Column<T>[];
  paged: Paged<T>;
  rowKey: (row: T) => string;
  empty: string;
}) {
  return (
    <section aria-label={caption}>
      <ErrorMessage error={paged.error} />
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.header}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {paged.items.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {paged.isLoading ? <p role="status">Loading…</p> : paged.items.length === 0 && !paged.error ? <p>{empty}</p> : null}
      <nav className="pager" aria-label={`${caption} pages`}>
        <button type="button" onClick={paged.previous} disabled={!paged.hasPrevious}>
          Previous page
        </button>
        <span>Page {paged.pageNumber}</span>
        <button type="button" onClick={paged.next} disabled={!paged.hasNext}>
          Next page
        </button>
      </nav>
    </section>
  );
}
