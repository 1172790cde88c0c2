import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Typeahead } from '../../../src/client/ui/typeahead';

interface Option {
  id: number;
  name: string;
}

const GROUPS: Option[] = [
  { id: 1, name: 'Friday Forecasters' },
  { id: 2, name: 'Fantasy Friends' },
];

let loadOptions: ReturnType<
  typeof vi.fn<(query: string, signal: AbortSignal) => Promise<Option[]>>
>;
let onSelect: ReturnType<typeof vi.fn<(option: Option | null) => void>>;

beforeEach(() => {
  vi.useFakeTimers();
  loadOptions = vi.fn(async (query: string) =>
    GROUPS.filter((g) => g.name.toLowerCase().includes(query.toLowerCase())),
  );
  onSelect = vi.fn();
  render(
    <Typeahead<Option>
      label="Group name"
      loadOptions={loadOptions}
      getOptionKey={(o) => o.id}
      getOptionLabel={(o) => o.name}
      onSelect={onSelect}
    />,
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const input = () => screen.getByRole('combobox', { name: 'Group name' });
const type = (value: string) => fireEvent.change(input(), { target: { value } });
const settle = () =>
  act(async () => {
    await Promise.resolve();
  });

describe('typeahead (docs/groups-and-bets.md §4: 3 characters, 300 ms)', () => {
  it('does not search below 3 characters', async () => {
    type('Fr');
    await act(async () => vi.advanceTimersByTime(1000));
    expect(loadOptions).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('searches once, 300 ms after the typing pauses, showing "Loading..." meanwhile', async () => {
    let resolve!: (options: Option[]) => void;
    loadOptions.mockImplementationOnce(() => new Promise((r) => (resolve = r)));
    type('Fri');
    type('Frid');
    await act(async () => vi.advanceTimersByTime(299));
    expect(loadOptions).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(loadOptions).toHaveBeenCalledTimes(1);
    expect(loadOptions.mock.calls[0]![0]).toBe('Frid');
    expect(screen.getByText('Loading...')).toBeTruthy();

    await act(async () => resolve([GROUPS[0]!]));
    expect(screen.getByRole('option', { name: 'Friday Forecasters' })).toBeTruthy();
    expect(input().getAttribute('aria-expanded')).toBe('true');
  });

  it('says "No results" and "Error loading options"', async () => {
    type('zzz');
    await act(async () => vi.advanceTimersByTime(300));
    await settle();
    expect(screen.getByText('No results')).toBeTruthy();

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    loadOptions.mockRejectedValueOnce(new Error('offline'));
    type('zzzz');
    await act(async () => vi.advanceTimersByTime(300));
    await settle();
    expect(screen.getByText('Error loading options')).toBeTruthy();
    warn.mockRestore();
  });

  it('chooses an option with the keyboard and forgets it once the text changes', async () => {
    type('fri');
    await act(async () => vi.advanceTimersByTime(300));
    await settle();
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onSelect).toHaveBeenLastCalledWith(GROUPS[1]);
    expect((input() as HTMLInputElement).value).toBe('Fantasy Friends');
    expect(screen.queryByRole('listbox')).toBeNull();

    type('Fantasy Friend');
    expect(onSelect).toHaveBeenLastCalledWith(null);
  });
});
