import { Link } from 'react-router-dom';
import { MINIMUM_AGE, TERMS_NOTICE_DAYS } from '../../domain/constants';
import { CONTACT_EMAIL, LEGAL_LAST_UPDATED } from './contact-details';
import { LegalDocument, LegalSection } from './legal-document';

/** /terms-conditions: the rules of using Hunch, in 15 sections (docs/accounts-and-shell.md §2 and §9). */
export default function TermsPage() {
  return (
    <LegalDocument
      title="Terms and Conditions"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={
        <p>
          These terms are the agreement between you and Hunch. We've kept them as short and plain as
          we can. Please read them before you <Link to="/register">create an account</Link>, and see
          our <Link to="/privacy-policy">Privacy Policy</Link> for how we handle your data.
        </p>
      }
      summary={
        <>
          <li>
            Hunch uses virtual points only. They have no cash value and never turn into money.
          </li>
          <li>You need to be at least {MINIMUM_AGE} years old to play.</li>
          <li>Hunch is free. We may offer optional premium features later.</li>
          <li>You're responsible for the bets and groups you create. Keep them kind.</li>
          <li>
            We'll tell you {TERMS_NOTICE_DAYS} days before any material change to these terms.
          </li>
        </>
      }
    >
      <LegalSection number={1} title="Welcome to Hunch">
        <p>
          Hunch is a social prediction game. You join groups with friends, create bets about things
          that haven't happened yet, and wager virtual points on what you think will happen. These
          terms apply to the Hunch website and the installable Hunch app (together, “Hunch”).
        </p>
        <p>
          By creating an account, continuing as a guest or otherwise using Hunch, you agree to these
          terms. If you don't agree, please don't use Hunch.
        </p>
      </LegalSection>

      <LegalSection number={2} title="Who can use Hunch">
        <p>
          You must be at least {MINIMUM_AGE} years old to use Hunch. If you are under the age of
          legal adulthood where you live, you may only use Hunch with the permission of a parent or
          guardian, who accepts these terms on your behalf.
        </p>
        <p>
          You may not use Hunch if the law where you live does not allow it, or if we have
          previously closed your account for breaking these terms.
        </p>
      </LegalSection>

      <LegalSection number={3} title="Your account">
        <p>
          A full account needs your name, a display name, a username, an email address and a
          password. Please give accurate details and keep them up to date from your profile.
        </p>
        <ul>
          <li>
            Keep your password to yourself. You're responsible for what happens in your account.
          </li>
          <li>One person, one account. Accounts can't be shared, sold or transferred.</li>
          <li>
            If you think someone else has used your account, reset your password and contact us
            straight away.
          </li>
        </ul>
      </LegalSection>

      <LegalSection number={4} title="Guest accounts">
        <p>
          You can play as a guest with only a display name. A guest account is temporary: it lives
          on the device and browser you created it on, so if you sign out or clear your browser's
          data, you may not be able to get back into it.
        </p>
        <p>
          You can upgrade a guest account to a full account at any time and keep your groups and
          points. Guest accounts follow the same terms as full accounts, and we may remove guest
          accounts that have not been used for a long time.
        </p>
      </LegalSection>

      <LegalSection number={5} title="Virtual points only">
        <p>
          Points in Hunch are virtual. They exist only to keep score in the game and have no cash or
          monetary value. You can't buy points, sell them, trade them or exchange them for money,
          prizes, goods or services, inside Hunch or anywhere else.
        </p>
        <p>
          Hunch is not a gambling service and no real money is ever staked, won or lost. Please
          don't use Hunch to organise or record real-money bets, or to settle debts outside the
          game. We may correct point balances that are wrong because of a mistake, a bug or a breach
          of these terms.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Groups and bets">
        <p>
          Groups and bets are created by players. A group's creator and admins look after the group.
          When you join a group you get its starting points, which you can only use in that group.
        </p>
        <ul>
          <li>
            The creator of a bet decides the correct answer once the outcome is known. Please
            resolve bets honestly and promptly.
          </li>
          <li>
            Winners share the bet's pool in proportion to their wagers. If nobody picked the correct
            answer, or a bet is cancelled or expires without being resolved, every wager is refunded
            in full.
          </li>
          <li>
            We don't check real-world outcomes, and we don't referee disagreements within a group.
            Sort them out the friendly way.
          </li>
        </ul>
      </LegalSection>

      <LegalSection number={7} title="Free and premium tiers">
        <p>
          Hunch is free to use. In the future we may offer an optional premium tier with extra
          features. If we do, we'll describe exactly what it includes and what it costs before you
          decide, and you'll never need it to play with your groups.
        </p>
        <p>
          Premium features will never let anyone buy points or turn points into money: rule 5
          applies to every tier.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Your content">
        <p>
          Your content is what you add to Hunch: your display name, group names and descriptions,
          bet titles, descriptions and answers, and your predictions. You keep ownership of it and
          you're responsible for it.
        </p>
        <p>
          You give us permission to store your content and show it to the people it's meant for (for
          example the members of your group, or anyone who can find a public group by its name) for
          as long as it's needed to run Hunch. We may remove content that breaks these terms.
        </p>
      </LegalSection>

      <LegalSection number={9} title="Acceptable use">
        <p>Hunch is for friendly fun. When you use it, please don't:</p>
        <ul>
          <li>harass, bully, threaten or embarrass anyone, or post hateful or sexual content;</li>
          <li>
            create bets about harm coming to a real person, or that encourage anyone to break the
            law;
          </li>
          <li>share someone else's private information without their permission;</li>
          <li>
            pretend to be someone else, or use several accounts to gain points or influence a group;
          </li>
          <li>use bots, scripts or scraping, or try to get around limits or security measures;</li>
          <li>interfere with Hunch, its servers or other players' use of it.</li>
        </ul>
      </LegalSection>

      <LegalSection number={10} title="Notifications and emails">
        <p>
          If you turn them on, Hunch sends push notifications about your groups, such as new bets,
          results and members joining. You can turn them off at any time in your profile or your
          browser settings.
        </p>
        <p>
          We send emails only when your account needs them, for example a password reset link you
          asked for, or notice of a change to these terms.
        </p>
      </LegalSection>

      <LegalSection number={11} title="The service and changes to it">
        <p>
          We're always improving Hunch, so features may change, be added or be removed. We aim to
          keep Hunch available, but it may sometimes be interrupted for maintenance or by things
          outside our control.
        </p>
        <p>
          Hunch keeps working with a poor connection: changes you make offline are sent when you
          reconnect. A change sent late can still be refused, for example if the bet's countdown
          ended in the meantime, and the app will tell you when that happens.
        </p>
      </LegalSection>

      <LegalSection number={12} title="Closing or suspending an account">
        <p>
          You can stop using Hunch at any time, and you can ask us to delete your account by
          contacting us. How we handle your data afterwards is described in our{' '}
          <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
        <p>
          We may suspend or close an account that breaks these terms or puts other players or Hunch
          at risk. Where it's reasonable, we'll tell you why and give you a chance to respond first.
        </p>
      </LegalSection>

      <LegalSection number={13} title="Disclaimers and liability">
        <p>
          Hunch is provided “as is” and “as available”. We don't promise that it will be free of
          errors or interruptions, or that bets are resolved correctly by the people who create
          them.
        </p>
        <p>
          As far as the law allows, we are not liable for indirect or consequential losses arising
          from your use of Hunch. Because Hunch is free and uses virtual points only, there is no
          money to lose. Nothing in these terms limits rights you have under consumer law that can't
          be limited.
        </p>
      </LegalSection>

      <LegalSection number={14} title="Changes to these terms">
        <p>
          We may update these terms from time to time. If a change is material, we'll let you know
          in the app or by email at least {TERMS_NOTICE_DAYS} days before it takes effect. Smaller
          changes, such as clearer wording, apply when we publish them, and the date at the top of
          this page always shows the latest version.
        </p>
        <p>
          If you keep using Hunch after a change takes effect, you accept the new terms. If you
          don't agree with them, you can stop using Hunch and ask us to delete your account.
        </p>
      </LegalSection>

      <LegalSection number={15} title="Contact us">
        <p>
          Questions about these terms, or something to report? Write to us at{' '}
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> and a real person will get back to
          you.
        </p>
        <p>
          Ready to play? <Link to="/register">Create your free account</Link>, or read our{' '}
          <Link to="/privacy-policy">Privacy Policy</Link> first.
        </p>
      </LegalSection>
    </LegalDocument>
  );
}
