import { describe, expectTypeOf, it } from 'vitest';
import type {
  AccountExport,
  DeleteAccountForm,
  DeleteAccountRequest,
} from '../../src/domain/account-data';
import type * as Auth from '../../src/domain/auth';
import type { BetType, BetTypeConfigs } from '../../src/domain/bet-types';
import type * as Bets from '../../src/domain/bets';
import type * as Comments from '../../src/domain/comments';
import type * as DeviceTransfer from '../../src/domain/device-transfer';
import type * as Fair from '../../src/domain/fair-resolution';
import type * as Groups from '../../src/domain/groups';
import type * as Periods from '../../src/domain/leaderboard-periods';
import type { MemberStateResponse } from '../../src/domain/member-state';
import type * as MemberStats from '../../src/domain/member-stats';
import type * as Mirror from '../../src/domain/mirror';
import type * as Notifications from '../../src/domain/notifications';
import type * as Push from '../../src/domain/push';
import type * as Rounds from '../../src/domain/rounds';
import type * as Seasons from '../../src/domain/seasons';
import type * as AccountDataSchemas from '../../src/domain/schemas/account-data';
import type * as AuthSchemas from '../../src/domain/schemas/auth';
import type { BET_TYPE_CONFIG_SCHEMAS } from '../../src/domain/schemas/bet-types';
import type * as BetSchemas from '../../src/domain/schemas/bets';
import type * as CommentSchemas from '../../src/domain/schemas/comments';
import type * as DeviceTransferSchemas from '../../src/domain/schemas/device-transfer';
import type * as FairSchemas from '../../src/domain/schemas/fair-resolution';
import type * as GroupSchemas from '../../src/domain/schemas/groups';
import type * as PeriodSchemas from '../../src/domain/schemas/leaderboard-periods';
import type { memberStateResponseSchema } from '../../src/domain/schemas/member-state';
import type * as MemberStatsSchemas from '../../src/domain/schemas/member-stats';
import type * as MirrorSchemas from '../../src/domain/schemas/mirror';
import type * as NotificationSchemas from '../../src/domain/schemas/notifications';
import type * as PushSchemas from '../../src/domain/schemas/push';
import type * as RoundSchemas from '../../src/domain/schemas/rounds';
import type * as SeasonSchemas from '../../src/domain/schemas/seasons';
import type { z } from '../../src/domain/schemas/zod';

// The rule files' types are written by hand, so the rules stay free of zod; each is checked
// here against the schema that parses it (what it gives back, or for a request as sent, what
// it takes). A schema and its type that drift apart fail the typecheck (`npx tsc --noEmit`).

type Out<S extends z.ZodType> = z.output<S>;
type In<S extends z.ZodType> = z.input<S>;

describe('the rule files’ types are their schemas’', () => {
  it('bets and bet types', () => {
    expectTypeOf<Out<typeof BetSchemas.betSchema>>().toEqualTypeOf<Bets.Bet>();
    expectTypeOf<Out<typeof BetSchemas.wagerSchema>>().toEqualTypeOf<Bets.Wager>();
    expectTypeOf<
      Out<typeof BetSchemas.betUserContextSchema>
    >().toEqualTypeOf<Bets.BetUserContext>();
    expectTypeOf<Out<typeof BetSchemas.betStatisticsSchema>>().toEqualTypeOf<Bets.BetStatistics>();
    expectTypeOf<
      In<typeof BetSchemas.createBetRequestSchema>
    >().toEqualTypeOf<Bets.CreateBetRequest>();
    expectTypeOf<
      Out<typeof BetSchemas.createBetRequestSchema>
    >().toEqualTypeOf<Bets.CreateBetInput>();
    expectTypeOf<{
      [T in BetType]: Out<(typeof BET_TYPE_CONFIG_SCHEMAS)[T]>;
    }>().toEqualTypeOf<BetTypeConfigs>();
  });

  it('fair resolution and comments', () => {
    expectTypeOf<Out<typeof FairSchemas.revealedPickSchema>>().toEqualTypeOf<Fair.RevealedPick>();
    expectTypeOf<Out<typeof FairSchemas.betDisputeSchema>>().toEqualTypeOf<Fair.BetDispute>();
    expectTypeOf<
      In<typeof FairSchemas.disputeRequestSchema>
    >().toEqualTypeOf<Fair.DisputeRequest>();
    expectTypeOf<
      Out<typeof FairSchemas.betHistoryEntrySchema>
    >().toEqualTypeOf<Fair.BetHistoryEntry>();
    expectTypeOf<
      Out<typeof FairSchemas.versionedBetHistoryEntrySchema>
    >().toEqualTypeOf<Fair.VersionedBetHistoryEntry>();
    expectTypeOf<Out<typeof CommentSchemas.commentSchema>>().toEqualTypeOf<Comments.Comment>();
    expectTypeOf<
      Out<typeof CommentSchemas.versionedCommentSchema>
    >().toEqualTypeOf<Comments.VersionedComment>();
    expectTypeOf<
      In<typeof CommentSchemas.createCommentRequestSchema>
    >().toEqualTypeOf<Comments.CreateCommentRequest>();
  });

  it('groups', () => {
    expectTypeOf<
      In<typeof GroupSchemas.createGroupRequestSchema>
    >().toEqualTypeOf<Groups.CreateGroupRequest>();
    expectTypeOf<
      Out<typeof GroupSchemas.createGroupRequestSchema>
    >().toEqualTypeOf<Groups.CreateGroupInput>();
    expectTypeOf<
      Out<typeof GroupSchemas.invitePreviewSchema>
    >().toEqualTypeOf<Groups.InvitePreview>();
    expectTypeOf<Out<typeof GroupSchemas.groupSchema>>().toEqualTypeOf<Groups.Group>();
    expectTypeOf<
      Out<typeof GroupSchemas.groupSettingsSchema>
    >().toEqualTypeOf<Groups.GroupSettings>();
    expectTypeOf<
      Out<typeof GroupSchemas.inviteCodeResponseSchema>
    >().toEqualTypeOf<Groups.InviteCodeResponse>();
    expectTypeOf<
      In<typeof GroupSchemas.updateGroupRequestSchema>
    >().toEqualTypeOf<Groups.UpdateGroupRequest>();
    expectTypeOf<
      Out<typeof GroupSchemas.updateGroupSettingsRequestSchema>
    >().toEqualTypeOf<Groups.UpdateGroupSettingsInput>();
    expectTypeOf<
      Out<typeof GroupSchemas.publicGroupSummarySchema>
    >().toEqualTypeOf<Groups.PublicGroupSummary>();
    expectTypeOf<Out<typeof GroupSchemas.membershipSchema>>().toEqualTypeOf<Groups.Membership>();
    expectTypeOf<
      Out<typeof GroupSchemas.leaderboardResponseSchema>
    >().toEqualTypeOf<Groups.LeaderboardResponse>();
  });

  it('the inbox, push and the mirror', () => {
    expectTypeOf<
      Out<typeof NotificationSchemas.notificationPayloadSchema>
    >().toEqualTypeOf<Notifications.NotificationPayload>();
    expectTypeOf<
      Out<typeof NotificationSchemas.notificationSchema>
    >().toEqualTypeOf<Notifications.Notification>();
    expectTypeOf<
      Out<typeof NotificationSchemas.notificationSettingsSchema>
    >().toEqualTypeOf<Notifications.NotificationSettings>();
    expectTypeOf<
      In<typeof NotificationSchemas.markNotificationsReadRequestSchema>
    >().toEqualTypeOf<Notifications.MarkNotificationsReadRequest>();
    expectTypeOf<
      In<typeof NotificationSchemas.markAllNotificationsReadRequestSchema>
    >().toEqualTypeOf<Notifications.MarkAllNotificationsReadRequest>();
    expectTypeOf<
      In<typeof NotificationSchemas.pushKindsRequestSchema>
    >().toEqualTypeOf<Notifications.PushKindsRequest>();
    expectTypeOf<
      In<typeof NotificationSchemas.muteRequestSchema>
    >().toEqualTypeOf<Notifications.MuteRequest>();
    expectTypeOf<
      Out<typeof PushSchemas.registerPushSubscriptionSchema>
    >().toEqualTypeOf<Push.RegisterPushSubscriptionRequest>();
    expectTypeOf<
      Out<typeof PushSchemas.vapidPublicKeyResponseSchema>
    >().toEqualTypeOf<Push.VapidPublicKeyResponse>();
    expectTypeOf<
      Out<typeof PushSchemas.pushStatusResponseSchema>
    >().toEqualTypeOf<Push.PushStatusResponse>();
    expectTypeOf<
      Out<typeof PushSchemas.pushSubscriptionSchema>
    >().toEqualTypeOf<Push.PushSubscription>();
    expectTypeOf<Out<typeof memberStateResponseSchema>>().toEqualTypeOf<MemberStateResponse>();
    expectTypeOf<
      Out<typeof MirrorSchemas.mirrorEnvelopeSchema>
    >().toEqualTypeOf<Mirror.MirrorEnvelope>();
    expectTypeOf<Out<typeof MirrorSchemas.mirrorGroupSchema>>().toEqualTypeOf<Mirror.MirrorGroup>();
    expectTypeOf<
      Out<typeof MirrorSchemas.mirrorMembershipSchema>
    >().toEqualTypeOf<Mirror.MirrorMembership>();
    expectTypeOf<Out<typeof MirrorSchemas.mirrorBetSchema>>().toEqualTypeOf<Mirror.MirrorBet>();
    expectTypeOf<Out<typeof MirrorSchemas.mirrorWagerSchema>>().toEqualTypeOf<Mirror.MirrorWager>();
    expectTypeOf<
      Out<typeof MirrorSchemas.mirrorStatisticsSchema>
    >().toEqualTypeOf<Mirror.MirrorStatistics>();
    expectTypeOf<
      Out<typeof MirrorSchemas.removedMembershipSchema>
    >().toEqualTypeOf<Mirror.RemovedMembership>();
  });

  it('seasons, period leaderboards and member stats', () => {
    expectTypeOf<
      In<typeof SeasonSchemas.startSeasonRequestSchema>
    >().toEqualTypeOf<Seasons.StartSeasonRequest>();
    expectTypeOf<
      Out<typeof SeasonSchemas.seasonStandingSchema>
    >().toEqualTypeOf<Seasons.SeasonStanding>();
    expectTypeOf<Out<typeof SeasonSchemas.seasonSchema>>().toEqualTypeOf<Seasons.Season>();
    expectTypeOf<Out<typeof RoundSchemas.mirrorRoundSchema>>().toEqualTypeOf<Rounds.MirrorRound>();
    expectTypeOf<
      Out<typeof SeasonSchemas.versionedSeasonSchema>
    >().toEqualTypeOf<Seasons.VersionedSeason>();
    expectTypeOf<Out<typeof SeasonSchemas.seasonListSchema>>().toEqualTypeOf<Seasons.SeasonList>();
    expectTypeOf<
      Out<typeof PeriodSchemas.periodLeaderboardQuerySchema>
    >().toEqualTypeOf<Periods.PeriodLeaderboardQuery>();
    expectTypeOf<
      Out<typeof PeriodSchemas.periodResultSchema>
    >().toEqualTypeOf<Periods.PeriodResult>();
    expectTypeOf<
      Out<typeof PeriodSchemas.periodLeaderboardSchema>
    >().toEqualTypeOf<Periods.PeriodLeaderboard>();
    expectTypeOf<
      Out<typeof MemberStatsSchemas.typeAccuracySchema>
    >().toEqualTypeOf<MemberStats.TypeAccuracy>();
    expectTypeOf<
      Out<typeof MemberStatsSchemas.pointsStepSchema>
    >().toEqualTypeOf<MemberStats.PointsStep>();
    expectTypeOf<
      Out<typeof MemberStatsSchemas.headToHeadSchema>
    >().toEqualTypeOf<MemberStats.HeadToHead>();
    expectTypeOf<
      Out<typeof MemberStatsSchemas.memberStatsSchema>
    >().toEqualTypeOf<MemberStats.MemberStats>();
  });

  it('accounts', () => {
    expectTypeOf<
      In<typeof AuthSchemas.registerRequestSchema>
    >().toEqualTypeOf<Auth.RegisterRequest>();
    expectTypeOf<
      In<typeof AuthSchemas.updateProfileRequestSchema>
    >().toEqualTypeOf<Auth.UpdateProfileRequest>();
    expectTypeOf<
      In<typeof AuthSchemas.resetPasswordRequestSchema>
    >().toEqualTypeOf<Auth.ResetPasswordRequest>();
    expectTypeOf<
      In<typeof AuthSchemas.confirmEmailChangeRequestSchema>
    >().toEqualTypeOf<Auth.ConfirmEmailChangeRequest>();
    expectTypeOf<Out<typeof AuthSchemas.userSchema>>().toEqualTypeOf<Auth.User>();
    expectTypeOf<Out<typeof AuthSchemas.authResponseSchema>>().toEqualTypeOf<Auth.AuthResponse>();
    expectTypeOf<
      Out<typeof AuthSchemas.updateProfileResponseSchema>
    >().toEqualTypeOf<Auth.UpdateProfileResponse>();
    expectTypeOf<Out<typeof AuthSchemas.userBubbleSchema>>().toEqualTypeOf<Auth.UserBubble>();
    expectTypeOf<
      Out<typeof AuthSchemas.messageResponseSchema>
    >().toEqualTypeOf<Auth.MessageResponse>();
    expectTypeOf<Out<typeof AuthSchemas.loginFormSchema>>().toEqualTypeOf<Auth.LoginForm>();
    expectTypeOf<Out<typeof AuthSchemas.registerFormSchema>>().toEqualTypeOf<Auth.RegisterForm>();
    expectTypeOf<
      Out<typeof AuthSchemas.editAccountFormSchema>
    >().toEqualTypeOf<Auth.EditAccountForm>();
    expectTypeOf<
      Out<typeof AuthSchemas.forgotPasswordFormSchema>
    >().toEqualTypeOf<Auth.ForgotPasswordForm>();
    expectTypeOf<
      Out<typeof AuthSchemas.resetPasswordFormSchema>
    >().toEqualTypeOf<Auth.ResetPasswordForm>();
    expectTypeOf<Out<typeof AuthSchemas.guestFormSchema>>().toEqualTypeOf<Auth.GuestForm>();
    expectTypeOf<
      In<typeof AccountDataSchemas.deleteAccountRequestSchema>
    >().toEqualTypeOf<DeleteAccountRequest>();
    expectTypeOf<
      Out<typeof AccountDataSchemas.accountExportSchema>
    >().toEqualTypeOf<AccountExport>();
    expectTypeOf<
      Out<typeof AccountDataSchemas.deleteFullAccountFormSchema>
    >().toEqualTypeOf<DeleteAccountForm>();
    expectTypeOf<
      Out<typeof DeviceTransferSchemas.deviceTransferSchema>
    >().toEqualTypeOf<DeviceTransfer.DeviceTransfer>();
    expectTypeOf<
      Out<typeof DeviceTransferSchemas.deviceTransferPreviewSchema>
    >().toEqualTypeOf<DeviceTransfer.DeviceTransferPreview>();
    expectTypeOf<
      In<typeof DeviceTransferSchemas.redeemDeviceTransferRequestSchema>
    >().toEqualTypeOf<DeviceTransfer.RedeemDeviceTransferRequest>();
  });
});
