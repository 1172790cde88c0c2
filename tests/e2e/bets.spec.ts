import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { closeBettingNow, createBetViaApi, resolveViaApi } from './bets.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  twoInAGroup,
  uniqueGroupName,
} from './groups.helpers';

// Bets end to end: two members of one group in two browser contexts play one bet of each
// type, each type a test of its own (its own players and group): the creator makes it in the
// bet modal, both wager on the bet page, the creator resolves, both see the results panel, and
// the header's points and the leaderboard move exactly as the payout rule
// (docs/architecture.md §5) says. Each starts with 100 points.

type Wager = { answer: string | { number: string }; multiplier: '1x' | '2x' | '3x' };
interface Round {
  title: string;
  type: 'Yes / No' | 'Multiple choice' | 'Number' | 'Over / under';
  tier: '$' | '$$' | '$$$';
  configure?: (page: Page) => Promise<void>;
  creator: Wager;
  friend: Wager;
  resolve: string | { number: string };
  /** Available (= total, nothing left staked) points after the bet, from 100 each. */
  after: { creator: number; friend: number };
  winner: RegExp;
}

const rounds: Round[] = [
  // Pool 3 + 1 = 4; only the creator picked yes: they get 4.
  {
    title: 'Rain on Saturday?',
    type: 'Yes / No',
    tier: '$',
    creator: { answer: 'Yes', multiplier: '3x' },
    friend: { answer: 'No', multiplier: '1x' },
    resolve: 'Yes',
    after: { creator: 101, friend: 99 },
    winner: /Yes/,
  },
  // Base 2: the creator stakes 2 on Red, the friend 4 on Green; Green wins the pool of 6.
  {
    title: 'Which colour wins?',
    type: 'Multiple choice',
    tier: '$$',
    configure: async (page) => {
      await page.getByLabel('Option 1', { exact: true }).fill('Red');
      await page.getByLabel('Option 2', { exact: true }).fill('Green');
      await page.getByRole('button', { name: 'Add option' }).click();
      await page.getByLabel('Option 3', { exact: true }).fill('Blue');
    },
    creator: { answer: 'Red', multiplier: '1x' },
    friend: { answer: 'Green', multiplier: '2x' },
    resolve: 'Green',
    after: { creator: 98, friend: 102 },
    winner: /Green/,
  },
  // 10 (2 points) vs 20 (1 point), actual 18: the closest guess takes the pool of 3.
  {
    title: 'Goals this season?',
    type: 'Number',
    tier: '$',
    creator: { answer: { number: '10' }, multiplier: '2x' },
    friend: { answer: { number: '20' }, multiplier: '1x' },
    resolve: { number: '18' },
    after: { creator: 98, friend: 102 },
    winner: /20/,
  },
  // Line 2.5, 3 points each, actual 1: under wins the pool of 6.
  {
    title: 'Cups of coffee today?',
    type: 'Over / under',
    tier: '$$$',
    configure: async (page) => page.getByLabel('Line').fill('2.5'),
    creator: { answer: 'Over', multiplier: '1x' },
    friend: { answer: 'Under', multiplier: '1x' },
    resolve: { number: '1' },
    after: { creator: 97, friend: 103 },
    winner: /Under/,
  },
];

const header = (page: Page) => page.getByRole('banner');

async function expectHeaderPoints(page: Page, points: number) {
  await expect(header(page).getByText(String(points), { exact: true })).toBeVisible();
}

async function createBet(page: Page, round: Round): Promise<number> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Bet' }).click();
  const modal = page.getByRole('dialog', { name: 'Create a Bet' });
  await expect(modal.getByRole('tab', { name: /Details/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // The Type step is out of reach until Details is valid.
  await expect(modal.getByRole('tab', { name: /Type/ })).toBeDisabled();
  // Next refuses while the step is invalid; pressing it anyway shows the step's errors.
  const next = modal.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await next.click({ force: true });
  await expect(modal.getByText('Title is required')).toBeVisible();
  await modal.getByLabel('Title').fill(round.title);
  // The tier buttons show their points beside the spec's $ ("$$ · 2 pts").
  await modal.getByText(new RegExp(`^${round.tier.replaceAll('$', '\\$')} · \\d+ pts?$`)).click();
  await modal.getByRole('button', { name: 'Next' }).click();
  await modal.getByText(round.type, { exact: true }).click();
  await round.configure?.(page);
  await modal.getByRole('button', { name: 'Create Bet' }).click();
  await expect(page.getByText('Bet Created!')).toBeVisible();
  await expect(page).toHaveURL(/\/bets\/\d+$/);
  // The dashboard stays drawn until the bet page's chunk has loaded: wait for the page itself.
  await expect(page.getByRole('heading', { name: 'Bet Details', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: round.title })).toBeVisible();
  return Number(page.url().split('/').pop());
}

async function placeWager(page: Page, wager: Wager) {
  const card = page.getByRole('article', { name: 'Place your wager' });
  if (typeof wager.answer === 'string')
    await card.getByRole('button', { name: new RegExp(`^${wager.answer}`) }).click();
  else await card.getByLabel('Your prediction').fill(wager.answer.number);
  await card.getByRole('button', { name: wager.multiplier, exact: true }).click();
  await expect(card.getByText(/If you win: about/)).toBeVisible();
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(page.getByText('Wager Placed!').last()).toBeVisible();
  // Locked once placed, until Change.
  await expect(card.getByRole('button', { name: 'Change' })).toBeVisible();
}

async function resolve(page: Page, answer: Round['resolve']) {
  const card = page.getByRole('article', { name: /^Resolve this bet/ });
  // Betting is still open: settling closes it first, a step of its own.
  await expect(card.getByRole('button', { name: 'Resolve Bet' })).toHaveCount(0);
  await closeBettingNow(card);
  const resolveButton = card.getByRole('button', { name: 'Resolve Bet' });
  await expect(resolveButton).toBeDisabled();
  if (typeof answer === 'string')
    await card.getByRole('button', { name: new RegExp(`^${answer}`) }).click();
  else await card.getByRole('textbox').fill(answer.number);
  await resolveButton.click();
  await expect(card.getByText('Are you sure you want to resolve this bet?')).toBeVisible();
  await expect(card.getByText('This action cannot be undone.')).toBeVisible();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bet resolved!')).toBeVisible();
}

async function expectResults(page: Page, winner: RegExp) {
  await expect(page.getByText('Bet Resolved', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Participation Overview' })).toBeVisible();
  await expect(page.getByText('2 / 2')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Results Breakdown' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Answer Distribution' })).toBeVisible();
  // The winning answer carries the "Correct" tag next to its bar ("Who picked what" tags it too);
  // a numeric bet's closest guess is tagged "Closest".
  const distribution = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Answer Distribution' }) });
  const correct = distribution.getByRole('listitem').filter({ hasText: /Correct|Closest/ });
  await expect(correct).toHaveCount(1);
  await expect(correct).toContainText(winner);
}

test.describe('one bet of each type', () => {
  // One after another in one worker, as the one walk they were: four pairs of browsers at once
  // on a busy 2-core machine kept a toast waiting past the expect limit.
  test.describe.configure({ mode: 'default' });

  for (const round of rounds) {
    test(`two members play a ${round.type} bet: create, wager, resolve, results, points and leaderboard`, async ({
      browser,
      request,
    }) => {
      const creator = await registerPlayer(request);
      const friend = await registerPlayer(request);
      const groupName = uniqueGroupName('Bet Night');
      await createGroupViaApi(request, creator, { name: groupName });
      await joinViaApi(request, friend, groupName);

      const contexts = [await browser.newContext(), await browser.newContext()];
      try {
        const [creatorPage, friendPage] = [
          await contexts[0]!.newPage(),
          await contexts[1]!.newPage(),
        ];
        for (const [page, player] of [
          [creatorPage, creator],
          [friendPage, friend],
        ] as const) {
          await page.goto('/login');
          await signIn(page, player.person);
          await expect(page).toHaveURL(/\/dashboard$/);
          await expectHeaderPoints(page, 100);
          await expect(page.getByText('No active bets in your groups')).toBeVisible();
        }

        const betId = await createBet(creatorPage, round);
        await placeWager(creatorPage, round.creator);
        await friendPage.goto(`/bets/${betId}`);
        await expect(friendPage.getByRole('heading', { name: round.title })).toBeVisible();
        await placeWager(friendPage, round.friend);
        await resolve(creatorPage, round.resolve);
        await expectResults(creatorPage, round.winner);
        await friendPage.goto(`/bets/${betId}`);
        await expectResults(friendPage, round.winner);
        await expectHeaderPoints(creatorPage, round.after.creator);
        await expectHeaderPoints(friendPage, round.after.friend);

        await friendPage.goto('/leaderboard');
        for (const [name, value] of [
          [creator.person.displayName, round.after.creator],
          [friend.person.displayName, round.after.friend],
        ] as const) {
          await expect(friendPage.getByRole('row').filter({ hasText: name })).toContainText(
            String(value),
          );
        }
      } finally {
        await Promise.all(contexts.map((context) => context.close()));
      }
    });
  }
});

test('bets that come back: quick close choices, a weekly repeat that opens its next bet at the close, and "Same as last time"', async ({
  browser,
  request,
}) => {
  const { owner, member, group } = await twoInAGroup(request, 'Quiz Night');
  const page = await openAs(browser, member, `/group/${group.id}/bets`);

  // The quick choices come before the date-and-time field and fill it, in the player's zone.
  await page.getByRole('button', { name: 'Create a bet' }).click();
  const sheet = page.getByRole('dialog', { name: 'Create a Bet' });
  await sheet.getByLabel('Title').fill('Who wins the pub quiz?');
  const quick = sheet.getByRole('group', { name: 'Quick choices' });
  await expect(quick.getByRole('button', { name: 'in 1 hour' })).toBeVisible();
  await expect(quick.getByRole('button', { name: /^(tonight|tomorrow) 20:00$/ })).toBeVisible();
  await quick.getByRole('button', { name: 'tomorrow 9:00' }).click();
  await expect(sheet.getByLabel('Closes at')).toHaveValue(/T09:00$/);
  await expect(quick.getByRole('button', { name: 'tomorrow 9:00' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await sheet.getByLabel('Repeat').selectOption({ label: 'Every week' });
  await expect(sheet.getByLabel('Last day (optional)')).toBeVisible();
  await sheet.getByRole('button', { name: 'Next' }).click();
  await sheet.getByText('Yes / No', { exact: true }).click();
  await sheet.getByRole('button', { name: 'Create Bet' }).click();
  await expect(page.getByRole('heading', { name: 'Who wins the pub quiz?' })).toBeVisible();

  // A weekly bet closing in a few seconds: when it closes, the next one opens a week later.
  const title = 'Trivia champion this week?';
  const first = await createBetViaApi(request, owner, {
    groupId: group.id,
    title,
    hours: 4 / 3600,
    repeat: { every: 'week' },
  });
  await page.goto(`/group/${group.id}/bets`);
  await expect(page.getByRole('heading', { name: title })).toHaveCount(2, { timeout: 30_000 });

  // "Same as last time" on the settled one fills a new bet's form with it.
  await resolveViaApi(request, owner, first.id, 'yes');
  await page.goto(`/bets/${first.id}`);
  await page.getByRole('button', { name: 'Same as last time' }).click();
  const again = page.getByRole('dialog', { name: 'Create a Bet' });
  await expect(again.getByLabel('Title')).toHaveValue(title);
  await expect(again.getByRole('radio', { name: '$ (1 point)' })).toBeChecked();
});
