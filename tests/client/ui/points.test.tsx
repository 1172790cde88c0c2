import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Points, signedPoints } from '../../../src/client/ui/points';

afterEach(cleanup);

describe('signedPoints', () => {
  it('marks gains with a plus and losses with a true minus sign, in thousands', () => {
    expect(signedPoints(1240)).toBe('+1,240');
    expect(signedPoints(-35)).toBe('−35');
    expect(signedPoints(-2000)).toBe('−2,000');
    expect(signedPoints(0)).toBe('0');
  });
});

describe('Points', () => {
  it('shows a balance as it is, and a gain or loss signed (a season podium’s −2 beside its +2)', () => {
    const { container } = render(
      <>
        <Points value={1240} />
        <Points value={2} isSigned word="never" />
        <Points value={-2} isSigned word="never" />
      </>,
    );
    expect([...container.children].map((points) => points.textContent)).toEqual([
      '1,240points',
      '+2points',
      '−2points',
    ]);
    expect(screen.getAllByText('points')).toHaveLength(3);
  });

  it('shows a balance below zero (a re-resolution’s unpaid debt) with a true minus sign', () => {
    const { container } = render(<Points value={-1240} />);
    expect(container.textContent).toBe('−1,240points');
  });
});
