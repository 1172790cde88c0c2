import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Toggle } from '../../../src/client/ui/toggle';

afterEach(cleanup);

function Harness({ disabled = false }: { disabled?: boolean }) {
  const [on, setOn] = useState(false);
  return (
    <Toggle
      label="Group updates"
      description="Bets and results"
      checked={on}
      onChange={setOn}
      disabled={disabled}
    />
  );
}

describe('toggle', () => {
  it('is a named switch that flips aria-checked', () => {
    render(<Harness />);
    const toggle = screen.getByRole('switch', { name: 'Group updates' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
  });

  it('does nothing while disabled', () => {
    render(<Harness disabled />);
    const toggle = screen.getByRole('switch', { name: 'Group updates' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });
});
