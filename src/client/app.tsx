import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
// Declarative routes (BrowserRouter), not the data router: the data router's loaders and
// actions are unused here and would add ~15 KB gzip to the landing page's path.
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import type { NavigateOptions, To } from 'react-router-dom';
import { AppShell } from './shell/app-shell';
import { HomeRedirect, RequireSession } from './shell/require-session';
import { usePageTitle } from './shell/use-page-title';

// Under BrowserRouter, navigate() returns nothing (only the data router's returns a promise):
// say so, as react-router suggests, so no call looks like a promise left floating.
declare module 'react-router' {
  interface NavigateFunction {
    (to: To, options?: NavigateOptions): void;
    (delta: number): void;
  }
}

// The route table of docs/accounts-and-shell.md §2. Every screen is its own lazy chunk, so a visitor on the
// landing page downloads only the shell and the landing page.

const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((module) => ({ default: module[name] })));

const LandingPage = lazy(() => import('./public/landing-page'));
const HowItWorksPage = lazy(() => import('./public/how-it-works-page'));
const AboutPage = lazy(() => import('./public/about-page'));
const BlogPage = lazy(() => import('./public/blog-page'));
const TermsPage = lazy(() => import('./public/terms-page'));
const PrivacyPolicyPage = lazy(() => import('./public/privacy-policy-page'));

const LoginPage = named(() => import('./auth/login-page'), 'LoginPage');
const RegisterPage = named(() => import('./auth/register-page'), 'RegisterPage');
const GuestPage = named(() => import('./auth/guest-page'), 'GuestPage');
const ForgotPasswordPage = named(() => import('./auth/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = named(() => import('./auth/reset-password-page'), 'ResetPasswordPage');
const MoveDevicePage = named(() => import('./auth/move-device-page'), 'MoveDevicePage');
const ConfirmEmailPage = named(() => import('./auth/confirm-email-page'), 'ConfirmEmailPage');
const SharedBetPage = named(() => import('./share/shared-bet-page'), 'SharedBetPage');
const ProfilePage = named(() => import('./profile/profile-page'), 'ProfilePage');
const ApiTokensPage = named(() => import('./profile/api-tokens-page'), 'ApiTokensPage');

const DashboardPage = named(() => import('./dashboard/dashboard-page'), 'DashboardPage');
const LeaderboardPage = named(() => import('./leaderboard/leaderboard-page'), 'LeaderboardPage');
const ActiveGroupPage = named(() => import('./groups/active-group-page'), 'ActiveGroupPage');
const CreateGroupPage = named(() => import('./groups/create-group-page'), 'CreateGroupPage');
const GroupDetailsPage = named(() => import('./groups/group-details-page'), 'GroupDetailsPage');
const GroupInviteRedirect = named(
  () => import('./groups/group-details-page'),
  'GroupInviteRedirect',
);
const GroupBetsPage = named(() => import('./groups/group-bets-page'), 'GroupBetsPage');
const BetDetailsPage = named(() => import('./bets/bet-details-page'), 'BetDetailsPage');
const MemberStatsPage = named(() => import('./stats/member-stats-page'), 'MemberStatsPage');
const InboxPage = named(() => import('./inbox/inbox-page'), 'InboxPage');
const SeasonsPage = named(() => import('./seasons/seasons-page'), 'SeasonsPage');
const RoundsPage = named(() => import('./rounds/rounds-page'), 'RoundsPage');
const RoundPage = named(() => import('./rounds/round-page'), 'RoundPage');

/** The public pages are written without knowing the shell; the route gives them their title. */
function Titled({
  title,
  page: Page,
}: {
  title: string;
  page: LazyExoticComponent<ComponentType>;
}) {
  usePageTitle(title);
  return <Page />;
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<AppShell />}>
          <Route path="/" element={<HomeRedirect />} />
          <Route path="/landing" element={<Titled title="" page={LandingPage} />} />
          <Route
            path="/how-it-works"
            element={<Titled title="How it works" page={HowItWorksPage} />}
          />
          <Route path="/about" element={<Titled title="About" page={AboutPage} />} />
          <Route path="/blog" element={<Titled title="Blog" page={BlogPage} />} />
          <Route
            path="/terms-conditions"
            element={<Titled title="Terms and Conditions" page={TermsPage} />}
          />
          <Route
            path="/privacy-policy"
            element={<Titled title="Privacy Policy" page={PrivacyPolicyPage} />}
          />

          <Route path="/login" element={<LoginPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/continue-as-guest" element={<GuestPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
          {/* The link mailed to a new email address: signed in or not, on any device. */}
          <Route path="/confirm-email/:token" element={<ConfirmEmailPage />} />
          {/* DEVICE_TRANSFER_PATH of src/domain/device-transfer.ts, kept out of this chunk. */}
          <Route path="/move" element={<MoveDevicePage />} />
          {/* A bet's public link (SHARED_BET_PATH of src/domain/bet-shares.ts): anyone, signed in or not. */}
          <Route path="/s/:token" element={<SharedBetPage />} />

          <Route element={<RequireSession />}>
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/leaderboard" element={<LeaderboardPage />} />
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="/profile/api-tokens" element={<ApiTokensPage />} />
            <Route path="/group" element={<ActiveGroupPage />} />
            <Route path="/group/create" element={<CreateGroupPage />} />
            <Route path="/group/:id" element={<GroupDetailsPage />} />
            <Route path="/group/:id/invite" element={<GroupInviteRedirect />} />
            <Route path="/group/:id/bets" element={<GroupBetsPage />} />
            <Route path="/group/:id/members/:userId" element={<MemberStatsPage />} />
            <Route path="/group/:id/seasons" element={<SeasonsPage />} />
            <Route path="/group/:id/rounds" element={<RoundsPage />} />
            <Route path="/group/:id/rounds/:roundId" element={<RoundPage />} />
            <Route path="/bets/:id" element={<BetDetailsPage />} />
            <Route path="/inbox" element={<InboxPage />} />
          </Route>

          <Route path="*" element={<Navigate to="/dashboard" replace />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
