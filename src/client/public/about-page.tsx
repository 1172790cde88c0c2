import { HandHeart, Scale, ShieldCheck, Zap } from 'lucide-react';
import { CtaBand } from './cta-band';
import { FeatureCard, FeatureGrid } from './feature-card';
import { PageIntro, PageSection, PublicPage } from './public-page';
import styles from './about-page.module.css';

/** /about: why Hunch exists, what it stands for and where it came from (docs/accounts-and-shell.md §2). */
export default function AboutPage() {
  return (
    <PublicPage>
      <PageIntro
        eyebrow="About Hunch"
        title="The friendliest way to settle a friendly argument"
        lead="We make the guessing, the teasing and the “told you so” part of the fun, with points instead of money."
      />

      <PageSection title="Our mission">
        <div className={styles.prose}>
          <p>
            Every group has its running debates: who'll win on Saturday, whether the train will be
            late, who's getting voted off this week. Hunch turns those moments into a game you play
            together, with a countdown, a little at stake and a leaderboard to brag about.
          </p>
          <p>
            Our mission is simple: bring friends closer through friendly predictions. No real money,
            no pressure, no casino lights. Just good calls, bad calls and a lot of laughing about
            both.
          </p>
        </div>
      </PageSection>

      <PageSection title="What we care about">
        <FeatureGrid columns={2}>
          <FeatureCard icon={HandHeart} title="Friends first">
            <p>
              Hunch is played with virtual points only, and it always will be. The best prize is
              being right in front of people you like.
            </p>
          </FeatureCard>
          <FeatureCard icon={Scale} title="Fair and clear">
            <p>
              The rules are the same for everyone and easy to check: winners share the pool in
              proportion to their wagers, and if nobody wins, everyone gets their points back.
            </p>
          </FeatureCard>
          <FeatureCard icon={Zap} title="Quick on any phone">
            <p>
              A game night shouldn't wait for a slow app. Hunch loads fast, updates live and keeps
              working when the signal doesn't.
            </p>
          </FeatureCard>
          <FeatureCard icon={ShieldCheck} title="Your data is yours">
            <p>
              We collect what the game needs and nothing more. We never sell your information, and
              we never show you ads.
            </p>
          </FeatureCard>
        </FeatureGrid>
      </PageSection>

      <PageSection title="Our story">
        <div className={styles.prose}>
          <p>
            Hunch started in a group chat. Someone said “I bet you” about a football match, then
            about the weather, then about whose turn it was to host. Nobody kept score, so everybody
            remembered winning.
          </p>
          <p>
            A spreadsheet came next. It lasted one weekend. What we wanted was something that took a
            minute to set up, worked on everyone's phone, counted the points for us and showed who
            was ahead the moment a bet was settled.
          </p>
          <p>
            So we built it, and kept it friendly on purpose: points instead of money, guests
            welcome, and a fresh leaderboard for every group you start. We hope your group has as
            much fun with it as ours does.
          </p>
        </div>
      </PageSection>

      <CtaBand
        title="Start your own running joke"
        text="Make a group, invite your people and call your first hunch. It's free."
        to="/register"
        label="Get Started Free"
      />
    </PublicPage>
  );
}
