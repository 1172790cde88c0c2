import { Link } from 'react-router-dom';
import { MINIMUM_AGE, TERMS_NOTICE_DAYS, TOKEN_LIFETIME } from '../../domain/constants';
import { CONTACT_EMAIL, LEGAL_LAST_UPDATED } from './contact-details';
import { LegalDocument, LegalSection } from './legal-document';

const REFRESH_TOKEN_DAYS = TOKEN_LIFETIME.refreshSeconds / (24 * 60 * 60);
const RESET_LINK_MINUTES = TOKEN_LIFETIME.passwordResetSeconds / 60;

/** /privacy-policy: what Hunch collects, keeps on your device and never does (docs/accounts-and-shell.md §2). */
export default function PrivacyPolicyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={
        <p>
          This policy explains what we collect when you play Hunch, why, and what you can do about
          it. It goes with our <Link to="/terms-conditions">Terms and Conditions</Link>.
        </p>
      }
      summary={
        <>
          <li>We collect what the game needs: your account, your groups, bets and wagers.</li>
          <li>We never sell your data and we don't show ads.</li>
          <li>A copy of your game data is kept on your device so Hunch works offline.</li>
          <li>
            You can download your data or delete your account yourself, at any time, in your
            profile. Deleting it takes effect at once.
          </li>
          <li>Hunch isn't for children under {MINIMUM_AGE}.</li>
        </>
      }
    >
      <LegalSection number={1} title="Who we are">
        <p>
          Hunch is a friendly prediction game played with virtual points. “We” and “us” means the
          team that runs Hunch. This policy covers the Hunch website and the installable Hunch app.
        </p>
      </LegalSection>

      <LegalSection number={2} title="What we collect">
        <ul>
          <li>
            <strong>Account details:</strong> your first and last name, display name, username,
            email address and password. We store your password only as a secure one-way hash, so
            nobody can read it, including us. A guest account has just a display name.
          </li>
          <li>
            <strong>Game data:</strong> the groups you create or join, your points in each group,
            the bets you create or resolve, and your wagers (your prediction and the points you put
            on it).
          </li>
          <li>
            <strong>Notification details:</strong> if you turn on notifications, your browser's push
            subscription (an address and keys to deliver messages to it), an identifier Hunch
            creates for your device, your browser's user agent and a short label such as “Mobile
            Chrome”.
          </li>
          <li>
            <strong>Technical data:</strong> your IP address and the time of each request, used to
            keep Hunch secure and stop abuse, such as too many sign-in attempts.
          </li>
        </ul>
      </LegalSection>

      <LegalSection number={3} title="What stays on your device">
        <p>
          So that Hunch is quick and keeps working when your signal drops, the app stores some data
          in your browser on your own device:
        </p>
        <ul>
          <li>
            a copy of your groups, members, bets, wagers and leaderboards in your browser's local
            database (IndexedDB), plus any changes waiting to be sent while you're offline;
          </li>
          <li>
            your sign-in tokens and basic profile, kept until you sign out if you chose “remember
            me” or created an account, and otherwise only until you close the browser;
          </li>
          <li>which group you have open, and the app's own files so it can start offline.</li>
        </ul>
        <p>
          Signing out removes your sign-in details and Hunch's copy of your game data from that
          device. You can also clear it at any time in your browser's settings.
        </p>
      </LegalSection>

      <LegalSection number={4} title="How we use it">
        <ul>
          <li>to run the game: your groups, bets, wagers, payouts and leaderboards;</li>
          <li>to update everyone in a group live when something changes;</li>
          <li>
            to send the notifications you turned on and the emails your account needs, such as a
            password reset link;
          </li>
          <li>to keep Hunch secure, prevent abuse and fix problems.</li>
        </ul>
        <p>
          We don't use your data for advertising, we don't build marketing profiles of you, and we
          don't use third-party analytics or trackers.
        </p>
      </LegalSection>

      <LegalSection number={5} title="What other players see">
        <p>
          Members of your groups see your display name and username, your points and place on the
          group's leaderboard, the bets you create and how you resolved them. They can see how many
          points are on each answer of a bet, but not your own prediction while the bet is open.
          Anyone can find a public group by its name.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Who we share it with">
        <p>
          We never sell or rent your personal data. We share it only when we have to, and only as
          much as needed:
        </p>
        <ul>
          <li>
            with the companies that host Hunch and deliver our emails, who may use it only to
            provide that service to us;
          </li>
          <li>
            with your browser maker's push service (for example Google, Mozilla or Apple), which
            delivers the notifications you turned on;
          </li>
          <li>when the law requires it, or to protect players or Hunch from harm.</li>
        </ul>
      </LegalSection>

      <LegalSection number={7} title="How long we keep it">
        <ul>
          <li>Account and game data: for as long as you have an account.</li>
          <li>
            Sign-in sessions: up to {REFRESH_TOKEN_DAYS} days without use. Password reset links stop
            working after {RESET_LINK_MINUTES} minutes and can be used only once.
          </li>
          <li>
            Notification details: until you turn notifications off, sign out on that device, or your
            browser tells us the subscription is no longer valid.
          </li>
          <li>Security records such as IP addresses: no longer than 30 days.</li>
        </ul>
        <p>
          <strong>Deleting your account</strong> (Profile → Your data → Delete account) happens at
          once, for full and guest accounts alike. We remove right away:
        </p>
        <ul>
          <li>your first and last name, display name, username, email address and password;</li>
          <li>every sign-in session, on every device, and any password reset link;</li>
          <li>your notification subscriptions;</li>
          <li>the comments you wrote on bets;</li>
          <li>the short-lived records that let the app safely retry a request.</li>
        </ul>
        <p>
          What stays, under the name “Deleted player”: your membership and points in each group,
          your wagers, the bets you created, your places in past seasons and the history of your
          points. That keeps every group's leaderboard, and every other player's points and payouts,
          exactly as they were. If you were a group's only admin, the member who has been in it
          longest becomes its admin. Your open bets can still be cancelled by a group admin;
          otherwise they end 7 days after they close and everyone's points on them are refunded.
          Security records such as IP addresses expire as above.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Keeping it safe">
        <p>
          We use encrypted connections, store passwords only as strong hashes, keep sign-in sessions
          short-lived and limit who on our team can reach personal data. No system is perfectly
          secure, but if something ever goes wrong, we'll tell you promptly.
        </p>
      </LegalSection>

      <LegalSection number={9} title="Your rights and choices">
        <p>Wherever you live, you can ask us to:</p>
        <ul>
          <li>
            show you the personal data we hold about you. You can download it yourself: Profile →
            Your data → Download my data gives you one JSON file with your profile (name, email,
            username, when you joined), your groups and your points in each, your wagers, the bets
            you created, every change to your points, the devices you get notifications on (the push
            service's name only) and your sign-in sessions (which app, when each began and was last
            used). It never contains your password or any secret sign-in or notification key;
          </li>
          <li>correct it (you can edit most of it yourself in your profile);</li>
          <li>delete your account and personal data (you can do this yourself, see section 7);</li>
          <li>stop or limit a particular use of your data.</li>
        </ul>
        <p>
          You can turn notifications on or off at any time in your profile. We answer requests
          within 30 days. If you're not happy with our answer, you can also complain to your local
          data protection authority.
        </p>
      </LegalSection>

      <LegalSection number={10} title="Children">
        <p>
          Hunch is not for children under {MINIMUM_AGE}, and we don't knowingly collect their data.
          If we learn that a child under {MINIMUM_AGE} has an account, we'll delete it. If you're a
          parent or guardian and think this has happened, please contact us.
        </p>
      </LegalSection>

      <LegalSection number={11} title="Cookies">
        <p>
          Hunch sets one cookie, a security token that protects your account against forged
          requests. We don't use advertising or tracking cookies.
        </p>
      </LegalSection>

      <LegalSection number={12} title="Changes to this policy">
        <p>
          If we make a material change to this policy, we'll tell you in the app or by email at
          least {TERMS_NOTICE_DAYS} days before it takes effect. The date at the top always shows
          the latest version.
        </p>
      </LegalSection>

      <LegalSection number={13} title="Contact us">
        <p>
          Questions or requests about your data? Write to us at{' '}
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
        </p>
        <p>
          Read our <Link to="/terms-conditions">Terms and Conditions</Link>, or{' '}
          <Link to="/register">create your free account</Link> and start playing.
        </p>
      </LegalSection>
    </LegalDocument>
  );
}
