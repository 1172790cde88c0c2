import { useNavigate } from 'react-router-dom';

/**
 * The Bet button (spec 01 §2) opens the bet-creation modal for the active group. Groups and
 * bets arrive in the next issue; until then it takes the player to their group, where
 * betting starts.
 */
export function useStartBet() {
  const navigate = useNavigate();
  return () => navigate('/group');
}
