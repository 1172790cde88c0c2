import { Brain, Briefcase, Cake, EyeOff, Flag, Plane, Trophy, Tv, Undo2 } from 'lucide-react';
import { proportionalShare } from '../../domain/payout';
import { CtaBand } from './cta-band';
import { FeatureCard, FeatureGrid } from './feature-card';
import { PageIntro, PageSection, PublicPage } from './public-page';
import { StepList, StepItem } from './step-list';
import styles from './how-it-works-page.module.css';

// The example's numbers follow the game's rules: a wager is 1, 2 or 3 × a base of 1, 2 or 3,
// and the payout is the domain's own share of the pool.
const EXAMPLE = { pool: 60, winningStake: 20, stake: 6, payout: proportionalShare(60, 6, 20) };

/** /how-it-works: the three steps of a game and the nights it is made for (docs/accounts-and-shell.md §2). */
export default function HowItWorksPage() {
  return (
    <PublicPage>
      <PageIntro
        eyebrow="How it works"
        title="From “I bet you…” to the leaderboard"
        lead="Three steps, a few taps each. Here's how a game of Hunch goes."
      />

      <PageSection title="Three steps to your first win">
        <StepList>
          <StepItem number={1} title="Create or join a group">
            <p>
              Start a group for your crew, public or private, and choose how many points everyone
              starts with (100 unless you pick another number). Share the link or QR code, and
              friends join in seconds, even as guests.
            </p>
          </StepItem>
          <StepItem number={2} title="Make your call before the clock runs out">
            <p>
              Anyone in the group can create a bet: yes or no, multiple choice, or guess the number.
              Each one has a countdown. Pick your answer and wager 1×, 2× or 3× the bet's base
              amount. Changed your mind? Update your wager until time's up.
            </p>
          </StepItem>
          <StepItem number={3} title="Settle it and climb the leaderboard">
            <p>
              When the moment has passed, the bet's creator picks the correct answer. The winners
              share the whole pool in proportion to their wagers, and the leaderboard updates for
              everyone, live. If nobody called it, everyone gets their points back.
            </p>
          </StepItem>
        </StepList>
        <div className={styles.example}>
          <span className={styles.coin} aria-hidden="true" />
          <p>
            <strong>How the pool is shared:</strong> say {EXAMPLE.pool} points are in the pool and
            the winners wagered {EXAMPLE.winningStake} of them. If {EXAMPLE.stake} of those were
            yours (2× a base of 3), you get {EXAMPLE.payout} points back.
          </p>
        </div>
      </PageSection>

      <PageSection
        title="Fair play, built in"
        intro="Friendly games stay friendly when everyone trusts the result."
      >
        <FeatureGrid>
          <FeatureCard icon={EyeOff} title="Picks stay secret until time's up">
            <p>
              While a bet is open, nobody sees what anyone else picked, only the odds. Once betting
              closes, everyone in the group sees who picked what and how much.
            </p>
          </FeatureCard>
          <FeatureCard icon={Undo2} title="Ten minutes to fix a slip">
            <p>
              Tapped the wrong answer? Whoever resolved a bet can undo it for 10 minutes. Every
              point goes back exactly where it was, and the bet waits for its result again.
            </p>
          </FeatureCard>
          <FeatureCard icon={Flag} title="Think a result is wrong? Say so">
            <p>
              Anyone who wagered can dispute a result within 24 hours. A group admin corrects it or
              lets it stand, and each bet keeps its history. If a creator never settles a bet, the
              admins can, a day after it closes.
            </p>
          </FeatureCard>
        </FeatureGrid>
      </PageSection>

      <PageSection
        title="Made for nights like these"
        intro="If your group argues about it, you can play Hunch on it. A few favourites:"
      >
        <FeatureGrid>
          <FeatureCard icon={Trophy} title="Sports nights">
            <p>Who scores first? Over or under three goals? Settle the sofa debates properly.</p>
          </FeatureCard>
          <FeatureCard icon={Briefcase} title="Office pools, just for fun">
            <p>
              Award-show picks, launch-day guesses, the cake in the kitchen. Points only, so
              everyone can play.
            </p>
          </FeatureCard>
          <FeatureCard icon={Brain} title="Family trivia">
            <p>
              How tall is the Eiffel Tower? Closest guess wins, and Grandma finally gets her crown.
            </p>
          </FeatureCard>
          <FeatureCard icon={Tv} title="Reality-TV finales">
            <p>Who gets the final rose? Who goes home tonight? Call it before the credits roll.</p>
          </FeatureCard>
          <FeatureCard icon={Plane} title="Travel-day guesses">
            <p>
              Will the flight leave on time? How long is the queue at passport control? Make the
              wait a game.
            </p>
          </FeatureCard>
          <FeatureCard icon={Cake} title="Big life moments">
            <p>
              When will the baby arrive? Who cries first at the wedding? Friendly guesses, happy
              memories.
            </p>
          </FeatureCard>
        </FeatureGrid>
      </PageSection>

      <CtaBand
        title="Ready when your group is"
        text="It's free, it takes a minute, and your friends are probably arguing about something right now."
        to="/register"
        label="Get Started Free"
      />
    </PublicPage>
  );
}
