import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from '../../../src/client/bets/countdown';
import {
  defaultPreset,
  ValueSelector,
  valueSelectorError,
} from '../../../src/client/ui/value-selector';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const presets = [
  { label: '1x', value: 2 },
  { label: '2x', value: 4 },
  { label: '3x', value: 6 },
];

function Harness({ onValue }: { onValue: (value: number | null) => void }) {
  const [value, setValue] = useState<number | null>(defaultPreset(presets));
  return (
    <ValueSelector
      presets={presets}
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

describe('value selector (docs/groups-and-bets.md §2, §5)', () => {
  it('defaults to the smallest preset and checks the minimum', () => {
    expect(defaultPreset(presets)).toBe(2);
    expect(valueSelectorError(0)).toBe('Value must be at least 1');
    expect(valueSelectorError(3, { min: 4 })).toBe('Value must be at least 4');
    expect(valueSelectorError(null)).toBe('Value is required');
    expect(valueSelectorError(null, { required: false })).toBeNull();
  });

  it('selects presets and a custom amount behind "?", with the message once touched', () => {
    const seen: Array<number | null> = [];
    render(<Harness onValue={(value) => seen.push(value)} />);
    expect(screen.getByRole('group', { name: /Wager Amount:/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: '1x' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: '3x' }));
    expect(seen.at(-1)).toBe(6);
    fireEvent.click(screen.getByRole('button', { name: 'Custom amount' }));
    const input = screen.getByPlaceholderText('Enter amount');
    fireEvent.change(input, { target: { value: '0' } });
    expect(screen.queryByText('Value must be at least 1')).toBeNull();
    fireEvent.blur(input);
    expect(screen.getByText('Value must be at least 1')).toBeTruthy();
    fireEvent.change(input, { target: { value: '5' } });
    expect(seen.at(-1)).toBe(5);
    expect(screen.queryByText('Value must be at least 1')).toBeNull();
  });
});

describe('value selector without a custom amount (a wager: only what the server accepts)', () => {
  it('offers the presets alone, no "?"', () => {
    const seen: Array<number | null> = [];
    render(
      <ValueSelector
        presets={presets}
        value={2}
        allowCustom={false}
        onChange={(next) => seen.push(next)}
      />,
    );
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      '1x',
      '2x',
      '3x',
    ]);
    expect(screen.queryByRole('button', { name: 'Custom amount' })).toBeNull();
    expect(screen.queryByPlaceholderText('Enter amount')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '2x' }));
    expect(seen).toEqual([4]);
  });
});

describe('countdown (docs/groups-and-bets.md §4, §9)', () => {
  it('ticks every second, shows seconds only in the last minute, colours by time left, then "Expired"', () => {
    vi.useFakeTimers();
    const start = Date.parse('2030-01-01T00:00:00Z');
    vi.setSystemTime(start);
    const { container, rerender } = render(
      <Countdown expiresAt={new Date(start + 2 * 86_400_000 + 3 * 3_600_000).toISOString()} />,
    );
    const root = () => container.firstElementChild!;
    expect(root().textContent).toContain('2d 3h');
    expect(root().className).toMatch(/success/);

    rerender(<Countdown expiresAt={new Date(start + 5 * 3_600_000).toISOString()} />);
    expect(root().textContent).toContain('5h 0m');
    expect(root().className).toMatch(/warning/);

    rerender(<Countdown expiresAt={new Date(start + 61_000).toISOString()} />);
    expect(root().textContent).toContain('1m');
    expect(root().className).toMatch(/error/);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(root().textContent).toContain('59s');
    act(() => {
      vi.advanceTimersByTime(59_000);
    });
    expect(root().textContent).toBe('Expired');
  });

  it('says "Closed" while the expiry is ahead once the picks were shown, "Expired" after', () => {
    vi.useFakeTimers();
    const start = Date.parse('2030-01-01T00:00:00Z');
    vi.setSystemTime(start);
    const { container } = render(
      <Countdown
        expiresAt={new Date(start + 3 * 3_600_000).toISOString()}
        picksRevealedAt={new Date(start - 60_000).toISOString()}
      />,
    );
    const root = () => container.firstElementChild!;
    expect(root().textContent).toBe('Closed');
    expect(root().className).toMatch(/error/);
    act(() => {
      vi.advanceTimersByTime(3 * 3_600_000);
    });
    expect(root().textContent).toBe('Expired');
  });
});
