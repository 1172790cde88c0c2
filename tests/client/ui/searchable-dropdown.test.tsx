import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchableDropdown } from '../../../src/client/ui/searchable-dropdown';

interface Option {
  id: number;
  name: string;
}
const OPTIONS: Option[] = [
  { id: 1, name: 'Book Club' },
  { id: 2, name: 'Chess Club' },
];

afterEach(cleanup);

function renderDropdown(loadOptions: () => Promise<Option[]>, onChange = vi.fn()) {
  render(
    <SearchableDropdown<Option>
      label="Group"
      loadOptions={loadOptions}
      getOptionKey={(o) => o.id}
      getOptionLabel={(o) => o.name}
      value={null}
      onChange={onChange}
    />,
  );
  return onChange;
}

describe('searchable dropdown (docs/groups-and-bets.md §2, §4 "Async dropdown")', () => {
  it('reads "Loading..." until its options arrive, then opens, filters and chooses', async () => {
    let resolve!: (options: Option[]) => void;
    const onChange = renderDropdown(() => new Promise((r) => (resolve = r)));
    const trigger = screen.getByRole('button', { name: /Group/ });
    expect(trigger.textContent).toContain('Loading...');
    expect((trigger as HTMLButtonElement).disabled).toBe(true);

    await act(async () => resolve(OPTIONS));
    fireEvent.click(trigger);
    expect(screen.getAllByRole('option')).toHaveLength(2);
    fireEvent.change(screen.getByRole('combobox', { name: 'Search Group' }), {
      target: { value: 'CHESS' },
    });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Chess Club']);
    fireEvent.change(screen.getByRole('combobox', { name: 'Search Group' }), {
      target: { value: 'darts' },
    });
    expect(screen.getByText('No results')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Search Group' }), {
      target: { value: 'book' },
    });
    fireEvent.click(screen.getByRole('option', { name: 'Book Club' }));
    expect(onChange).toHaveBeenCalledWith(OPTIONS[0]);
  });

  it('is read-only with "No options" when there are none', async () => {
    renderDropdown(async () => []);
    await act(async () => undefined);
    const trigger = screen.getByRole('button', { name: /Group/ });
    expect(trigger.textContent).toContain('No options');
    expect((trigger as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the error with Retry, and Retry loads again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const load = vi
      .fn<() => Promise<Option[]>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(OPTIONS);
    renderDropdown(load);
    await act(async () => undefined);
    expect(screen.getByRole('alert').textContent).toContain('Error loading options');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('button', { name: /Group/ }).textContent).toContain('Select...');
    warn.mockRestore();
  });
});
