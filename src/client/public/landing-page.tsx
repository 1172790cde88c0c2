import { Gift, Trophy, Zap } from 'lucide-react';
import { ButtonLink } from './button-link';
import { BetPreview } from './bet-preview';
import { CtaBand } from './cta-band';
import { FaqItem, FaqList } from './faq-list';
import { FeatureCard, FeatureGrid } from './feature-card';
import { PageSection, PublicPage } from './public-page';
import styles from './landing-page.module.css';

/** /landing: what Hunch is, in one screen, for a visitor who is not signed in (docs/accounts-and-shell.md §2). */
export default function LandingPage() {
  return (
    <PublicPage>
      <div className={styles.hero}>
        <div className={styles.heroText}>
          <p className={styles.badge}>Free · Virtual points only</p>
          <h1 className={styles.title}>Call it before it happens.</h1>
          <p className={styles.lead}>
            Hunch is the free prediction game for your group of friends. Set up a group in a minute,
            bet points on anything, and watch the leaderboard move live.
          </p>
          <div className={styles.actions}>
            <ButtonLink to="/login">Get Started</ButtonLink>
            <ButtonLink to="/how-it-works" variant="secondary">
              See how it works
            </ButtonLink>
          </div>
          <p className={styles.promise}>
            <span className={styles.coin} aria-hidden="true" />
            Points, never money. Just bragging rights.
          </p>
        </div>
        <div className={styles.heroArt}>
          <BetPreview />
        </div>
      </div>

      <PageSection title="Why groups love Hunch">
        <FeatureGrid>
          <FeatureCard icon={Gift} title="Free for everyone">
            <p>
              No fees, no cards, no catch. Everyone in your group plays for free, with virtual
              points that are only ever points.
            </p>
          </FeatureCard>
          <FeatureCard icon={Zap} title="Ready in a minute">
            <p>
              Make a group, share the link or QR code, and your first bet is live before the snacks
              arrive. Friends can jump in as guests.
            </p>
          </FeatureCard>
          <FeatureCard icon={Trophy} title="Live results and leaderboards">
            <p>
              Wagers, odds and results update in real time. The moment a bet is settled, you see who
              called it and who climbed the leaderboard.
            </p>
          </FeatureCard>
        </FeatureGrid>
      </PageSection>

      <PageSection title="Questions, answered">
        <FaqList>
          <FaqItem question="Is Hunch really free?">
            <p>
              Yes. Making an account, starting groups, creating bets and playing are all free. We
              may add optional premium extras one day, but the game itself stays free.
            </p>
          </FaqItem>
          <FaqItem question="Is there any real money involved?">
            <p>
              No, never. Hunch uses virtual points only. Points have no cash value: you can't buy
              them, sell them or swap them for anything. It's a game among friends, not gambling.
            </p>
          </FaqItem>
          <FaqItem question="How do points work?">
            <p>
              Everyone who joins a group gets the same starting points (100 unless the creator picks
              another number). On each bet you wager 1×, 2× or 3× its base amount. When the bet is
              settled, the winners share the whole pool in proportion to their wagers.
            </p>
            <p>If nobody called it, everyone gets their points back.</p>
          </FaqItem>
          <FaqItem question="Do my friends need to sign up?">
            <p>
              Not to start. Anyone aged 13 or over can join as a guest with just a display name and
              upgrade to a full account later, keeping their groups and points.
            </p>
          </FaqItem>
          <FaqItem question="Does it work on my phone?">
            <p>
              Yes. Hunch runs in any modern browser and you can add it to your home screen like an
              app. Your bets and leaderboards stay readable when your signal drops, and a wager you
              make offline is sent as soon as you're back.
            </p>
          </FaqItem>
        </FaqList>
      </PageSection>

      <CtaBand
        title="Got a hunch? Prove it."
        text="Start a group tonight and find out who really knows what's coming."
        to="/login"
        label="Get Started"
      />
    </PublicPage>
  );
}
