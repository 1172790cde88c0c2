import { useEffect, useState } from 'react';

/** The clock, re-read every `tickMs` (the countdown's 1 s of docs/groups-and-bets.md §9), for views that change with time. */
export function useNow(tickMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
