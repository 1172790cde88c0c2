// The limits and messages of bets and wagers (docs/groups-and-bets.md §5), shared by the wire schemas
// (bets.ts) and the per-type rules (bet-types.ts), so the form and the server refuse the same
// things with the same words.

export const BET_LIMITS = {
  titleMax: 100,
  descriptionMax: 1000,
  labelMax: 50,
  optionsMin: 2,
  optionsMax: 10,
  optionMax: 100,
  predictionMax: 100,
  /** The $, $$, $$$ tiers of docs/groups-and-bets.md §5: a group's default stake tiers (stakes.ts). */
  baseWagerTiers: [1, 2, 3],
  /** A wager is the base amount times one of these (docs/groups-and-bets.md §3, §5). */
  multipliers: [1, 2, 3],
  /** The bet form's default expiry, now + 24 h (docs/groups-and-bets.md §5). */
  defaultExpiryMs: 24 * 60 * 60 * 1000,
  /** A bet closes at most a year ahead (docs/rules.md "Bets"): one in the year 9999 never settles. */
  maxExpiryAheadMs: 365 * 24 * 60 * 60 * 1000,
} as const;

export const DEFAULT_YES_LABEL = 'Yes';
export const DEFAULT_NO_LABEL = 'No';

export const BET_MESSAGES = {
  titleRequired: 'Title is required',
  titleMax: 'Title must be 100 characters or less',
  descriptionMax: 'Description must be 1000 characters or less',
  expiryRequired: 'Expiry date is required',
  expiryInvalid: 'Expiry date must be a valid date',
  expiryInPast: 'Expiry date must be in the future',
  expiryTooFar: 'Expiry date must be at most a year ahead',
  baseWagerRequired: 'Base Wager Amount is required',
  baseWagerMin: 'Base Wager Amount must be at least 1',
  baseWagerTier: "Base Wager Amount must be one of the group's stake tiers",
  betTypeRequired: 'Bet type is required',
  betTypeUnknown: 'Bet type must be yes_no, multiple_choice, numeric or over_under',
  groupRequired: 'Group is required',
  labelMax: 'Label must be 50 characters or less',
  optionsMin: 'At least 2 options are required',
  optionsMax: 'At most 10 options are allowed',
  optionMax: 'Option must be 100 characters or less',
  optionsDistinct: 'Options must be different',
  lineRequired: 'Line is required',
  lineInvalid: 'Line must be a number',
  predictionRequired: 'Prediction is required',
  predictionMax: 'Prediction must be 100 characters or less',
  pointsRequired: 'Points are required',
  pointsWhole: 'Points must be a whole number',
  pointsMin: 'Points must be at least 1',
  tipStakesNothing: 'A score tip stakes no points: send points 0',
  betRequired: 'Bet is required',
  answerRequired: 'Answer is required',
  answerMax: 'Answer must be 100 characters or less',
  // The numeric answer input's texts (docs/groups-and-bets.md §5).
  numberRequired: 'Please enter a number',
  numberInvalid: 'Please enter a valid number (use 2.5)',
  yesNo: 'Prediction must be yes or no',
  overUnder: 'Prediction must be over or under',
  notAnOption: 'Prediction must be one of the options',
  answerYesNo: 'Answer must be yes or no',
  answerNotAnOption: 'Answer must be one of the options',
  configInvalid: 'Invalid value',
} as const;
