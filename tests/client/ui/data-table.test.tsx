import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, nextSort, type DataTableColumn } from '../../../src/client/ui/data-table';

interface Row {
  id: number;
  name: string;
  points: number;
  rank: number;
}

const rows: Row[] = [
  { id: 1, name: 'Ada', points: 150, rank: 1 },
  { id: 2, name: 'Grace', points: 120, rank: 2 },
  { id: 3, name: 'Linus', points: 90, rank: 3 },
];
const columns: DataTableColumn<Row>[] = [
  { key: 'rank', header: 'Rank', sortValue: (r) => r.rank },
  { key: 'user', header: 'User', searchText: (r) => r.name, isRowHeader: true },
  { key: 'points', header: 'Points', sortValue: (r) => r.points },
];

afterEach(cleanup);

const names = () => screen.getAllByRole('rowheader').map((cell) => cell.textContent);
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) });

describe('data table (docs/groups-and-bets.md §2)', () => {
  it('cycles a sortable column ascending, descending, then none', () => {
    render(<DataTable caption="Standings" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    expect(header('Points').getAttribute('aria-sort')).toBe('none');
    const button = within(header('Points')).getByRole('button');

    fireEvent.click(button);
    expect(header('Points').getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['Linus', 'Grace', 'Ada']);

    fireEvent.click(button);
    expect(header('Points').getAttribute('aria-sort')).toBe('descending');
    expect(names()).toEqual(['Ada', 'Grace', 'Linus']);

    fireEvent.click(button);
    expect(header('Points').getAttribute('aria-sort')).toBe('none');
    expect(names()).toEqual(['Ada', 'Grace', 'Linus']);
  });

  it('says which figure a column holds beside its header, sortable or not', () => {
    const hinted: DataTableColumn<Row>[] = [
      { key: 'user', header: 'User', searchText: (r) => r.name, isRowHeader: true, hint: 'name' },
      { key: 'points', header: 'Points', sortValue: (r) => r.points, hint: 'total' },
    ];
    render(<DataTable caption="Standings" columns={hinted} rows={rows} rowKey={(r) => r.id} />);
    expect(within(header('Points')).getByRole('button').textContent).toBe('Points (total)');
    expect(header('User').textContent).toBe('User (name)');
  });

  it('starts another column at ascending and leaves unsortable columns plain', () => {
    expect(nextSort({ key: 'points', direction: 'descending' }, 'rank')).toEqual({
      key: 'rank',
      direction: 'ascending',
    });
    render(<DataTable caption="Standings" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    expect(within(header('User')).queryByRole('button')).toBeNull();
    expect(header('User').getAttribute('aria-sort')).toBeNull();
  });

  it('filters with the "Search..." box, case-insensitively, and says "No data to show" when nothing is left', () => {
    render(<DataTable caption="Standings" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const search = screen.getByPlaceholderText('Search...');
    fireEvent.change(search, { target: { value: 'GRA' } });
    expect(names()).toEqual(['Grace']);
    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(screen.getByText('No data to show')).toBeTruthy();
  });

  it('says "No data to show" for an empty table and marks a highlighted row', () => {
    const { rerender } = render(
      <DataTable caption="Standings" columns={columns} rows={[]} rowKey={(r) => r.id} />,
    );
    expect(screen.getByText('No data to show')).toBeTruthy();
    rerender(
      <DataTable
        caption="Standings"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        isRowHighlighted={(r) => r.id === 2}
      />,
    );
    const highlighted = screen.getAllByRole('row').filter((row) => row.className !== '');
    expect(highlighted.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Grace',
    ]);
  });
});
