import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { PointsChart } from '../../../src/client/stats/points-chart';

// The stats page's points line is a drawing: what a screen reader hears is its label, which
// must say where the points went, and the line must step (a total holds until it changes).

afterEach(cleanup);

const step = (day: number, total: number) => ({
  at: `2026-06-${String(day).padStart(2, '0')}T12:00:00.000Z`,
  total,
});

it('tells a screen reader where the points went, and draws steps between the extremes', () => {
  render(<PointsChart steps={[step(1, 100), step(3, 95), step(8, 112)]} />);
  const chart = screen.getByRole('img');
  expect(chart.getAttribute('aria-label')).toBe(
    'From 100 to 112 points over 3 changes; lowest 95, highest 112.',
  );
  expect(chart.querySelector('path')?.getAttribute('d')).toMatch(/^M6,[\d.]+H160V114H314V6$/);
  expect(screen.getByText('95 – 112 pts')).toBeTruthy();
});

it('draws a single total in the middle, and says when there is none', () => {
  render(<PointsChart steps={[step(1, 100)]} />);
  expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
    'From 100 to 100 points over 1 change; lowest 100, highest 100.',
  );
  expect(screen.getByRole('img').querySelector('circle')?.getAttribute('cx')).toBe('160');
  cleanup();
  render(<PointsChart steps={[]} />);
  expect(screen.getByText('No points yet.')).toBeTruthy();
});
