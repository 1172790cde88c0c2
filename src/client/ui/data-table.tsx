import { ArrowDown, ArrowUp, ArrowUpDown, Search } from 'lucide-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import styles from './data-table.module.css';

// The generic data table of docs/groups-and-bets.md §2: a "Search..." box, sortable columns whose header
// cycles ascending → descending → none, and "No data to show" when no row is left.

type SortDirection = 'ascending' | 'descending';
export interface SortState {
  key: string;
  direction: SortDirection;
}

export interface DataTableColumn<Row> {
  key: string;
  header: string;
  /** A word or two beside the header saying which figure the column holds ("total"). */
  hint?: string;
  /** The cell; the text of searchText (or sortValue) when omitted. */
  render?: (row: Row) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: Row) => string | number;
  /** What the search box matches in this column (case-insensitive substring). */
  searchText?: (row: Row) => string;
  align?: 'start' | 'end';
  /** Renders the cell as the row's header cell (the row's name for screen readers). */
  isRowHeader?: boolean;
}

interface DataTableProps<Row> {
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The table's accessible name. */
  caption: string;
  isCaptionHidden?: boolean;
  isRowHighlighted?: (row: Row) => boolean;
  searchPlaceholder?: string;
  emptyText?: string;
}

/** The next state of a header click: a new column starts ascending; the same one goes on to descending, then none. */
export function nextSort(current: SortState | null, key: string): SortState | null {
  if (!current || current.key !== key) return { key, direction: 'ascending' };
  return current.direction === 'ascending' ? { key, direction: 'descending' } : null;
}

function compare(a: string | number, b: string | number) {
  return typeof a === 'number' && typeof b === 'number'
    ? a - b
    : String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  isCaptionHidden = false,
  isRowHighlighted,
  searchPlaceholder = 'Search...',
  emptyText = 'No data to show',
}: DataTableProps<Row>) {
  const searchId = useId();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);

  const visible = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const textOf = (column: DataTableColumn<Row>, row: Row) =>
      (column.searchText ?? column.sortValue)?.(row);
    const filtered = needle
      ? rows.filter((row) =>
          columns.some((column) =>
            String(textOf(column, row) ?? '')
              .toLowerCase()
              .includes(needle),
          ),
        )
      : [...rows];
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!sort || !column?.sortValue) return filtered;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    // Array.prototype.sort is stable: equal values keep the rows' own order.
    return filtered.sort((a, b) => sign * compare(column.sortValue!(a), column.sortValue!(b)));
  }, [rows, columns, query, sort]);

  return (
    <div className={styles.wrapper}>
      <div className={styles.search}>
        <label htmlFor={searchId} className="visually-hidden">
          Search {caption}
        </label>
        <Search size={18} aria-hidden="true" className={styles.searchIcon} />
        <input
          id={searchId}
          type="search"
          className={styles.searchInput}
          placeholder={searchPlaceholder}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
        />
      </div>
      <div className={styles.scroller}>
        <table className={styles.table}>
          <caption className={isCaptionHidden ? 'visually-hidden' : styles.caption}>
            {caption}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <HeaderCell
                  key={column.key}
                  column={column}
                  sort={sort}
                  onSort={() => setSort(nextSort(sort, column.key))}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {visible.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className={styles.empty}>
                  {emptyText}
                </td>
              </tr>
            ) : (
              visible.map((row) => (
                <tr
                  key={rowKey(row)}
                  className={isRowHighlighted?.(row) ? styles.highlighted : undefined}
                >
                  {columns.map((column) => {
                    const content = column.render
                      ? column.render(row)
                      : String((column.searchText ?? column.sortValue)?.(row) ?? '');
                    const className = column.align === 'end' ? styles.end : undefined;
                    return column.isRowHeader ? (
                      <th
                        key={column.key}
                        scope="row"
                        className={`${styles.rowHeader} ${className ?? ''}`}
                      >
                        {content}
                      </th>
                    ) : (
                      <td key={column.key} className={className}>
                        {content}
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function HeaderCell<Row>({
  column,
  sort,
  onSort,
}: {
  column: DataTableColumn<Row>;
  sort: SortState | null;
  onSort: () => void;
}) {
  const className = column.align === 'end' ? styles.end : undefined;
  if (!column.sortValue) {
    return (
      <th scope="col" className={className}>
        <span className={styles.headerText}>
          {column.header}
          <HeaderHint hint={column.hint} />
        </span>
      </th>
    );
  }
  const direction = sort?.key === column.key ? sort.direction : null;
  const Icon =
    direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <th scope="col" aria-sort={direction ?? 'none'} className={className}>
      <button type="button" className={styles.sortButton} onClick={onSort}>
        <span className={styles.headerText}>
          {column.header}
          <HeaderHint hint={column.hint} />
        </span>
        <Icon
          size={14}
          aria-hidden="true"
          className={direction ? styles.sortActive : styles.sortIdle}
        />
      </button>
    </th>
  );
}

/** The hint under the header's word, small; heard as "Points (total)". */
function HeaderHint({ hint }: { hint: string | undefined }) {
  if (!hint) return null;
  return (
    <span className={styles.hint}>
      <span className="visually-hidden"> (</span>
      {hint}
      <span className="visually-hidden">)</span>
    </span>
  );
}
