import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../domain/schemas/zod';
import { messageResponseSchema } from '../../domain/schemas/auth';
import {
  createGroupRequestSchema,
  groupAdminRequestSchema,
  groupIdParamsSchema,
  groupMemberRequestSchema,
  groupSchema,
  groupSettingsSchema,
  groupUserParamsSchema,
  inviteCodeResponseSchema,
  invitePreviewRequestSchema,
  invitePreviewSchema,
  joinPrivateRequestSchema,
  joinPublicRequestSchema,
  leaderboardResponseSchema,
  listGroupsQuerySchema,
  membershipQuerySchema,
  membershipSchema,
  publicGroupSummarySchema,
  publicGroupsQuerySchema,
  updateGroupSettingsRequestSchema,
} from '../../domain/schemas/groups';
import { updateGroupRequestSchema } from '../../domain/schemas/groups';
import {
  periodLeaderboardQuerySchema,
  periodLeaderboardSchema,
} from '../../domain/schemas/leaderboard-periods';
import { memberStatsQuerySchema, memberStatsSchema } from '../../domain/schemas/member-stats';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { RateLimits } from '../config';
import { rateLimitHook, visitorLookupsPerIpRule } from '../rate-limits';
import {
  createdRowId,
  registerWrites,
  writeWith,
  type Writes,
  type WriteRunner,
} from '../writes/writes';
import type { GroupMembersService } from './group-members.service';
import type { GroupsService } from './groups.service';
import type { LeaderboardService } from './leaderboard.service';
import type { MemberStatsService } from './member-stats.service';

// The groups calls of docs/groups-and-bets.md §7 under /api. Every route is for
// signed-in users (401 before the body is parsed); each declares its schemas from
// src/domain and calls one service function.

export interface GroupsRoutesOptions {
  groups: GroupsService;
  members: GroupMembersService;
  leaderboard: LeaderboardService;
  memberStats: MemberStatsService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

export const LEFT_GROUP_MESSAGE = 'You left the group.';

const write = writeWith<{ groups: GroupsService; members: GroupMembersService }>();

export const GROUP_WRITES = {
  createGroup: write({
    body: createGroupRequestSchema,
    response: groupSchema,
    status: 201,
    run: (s, caller, { body }) => s.groups.createGroup(caller, body),
    created: createdRowId,
  }),
  joinPublicGroup: write({
    body: joinPublicRequestSchema,
    response: groupSchema,
    run: (s, caller, { body }) => s.members.joinPublic(caller, body.groupName),
  }),
  joinPrivateGroup: write({
    body: joinPrivateRequestSchema,
    response: groupSchema,
    run: (s, caller, { body }) => s.members.joinPrivate(caller, body.groupId, body.inviteCode),
    limit: 'joinPrivate',
  }),
  // An admin renames the group or changes its description.
  updateGroup: write({
    params: groupIdParamsSchema,
    body: updateGroupRequestSchema,
    response: groupSchema,
    run: (s, caller, { params, body }) => s.groups.updateGroup(caller, params.id, body),
  }),
  // A group's settings (the weekly floor top-up), for its admins.
  updateGroupSettings: write({
    params: groupIdParamsSchema,
    body: updateGroupSettingsRequestSchema,
    response: groupSettingsSchema,
    run: (s, caller, { params, body }) => s.groups.updateSettings(caller, params.id, body),
  }),
  removeMember: write({
    params: groupUserParamsSchema,
    response: groupSchema,
    run: (s, caller, { params }) => s.members.removeMember(caller, params.id, params.userId),
  }),
  // An admin adds back a player an admin removed ("Add back" on the members screen).
  addBackMember: write({
    params: groupUserParamsSchema,
    response: groupSchema,
    run: (s, caller, { params }) => s.members.addBackMember(caller, params.id, params.userId),
  }),
  // A new invite code for a private group, for its admins: the old one stops working.
  rotateInviteCode: write({
    params: groupIdParamsSchema,
    response: inviteCodeResponseSchema,
    run: (s, caller, { params }) => s.groups.rotateInviteCode(caller, params.id),
  }),
  // docs/groups-and-bets.md §7: an empty body. Send it without a Content-Type (an empty JSON body is a 400).
  leaveGroup: write({
    params: groupIdParamsSchema,
    response: messageResponseSchema,
    run: async (s, caller, { params }) => {
      await s.members.leaveGroup(caller, params.id);
      return { message: LEFT_GROUP_MESSAGE };
    },
  }),
} satisfies Writes;

export async function groupsRoutes(
  instance: FastifyInstance,
  { groups, members, leaderboard, memberStats, writes, rateLimits }: GroupsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);
  registerWrites(app, GROUP_WRITES, { runner: writes, rateLimits });

  app.get(
    '/groups',
    { schema: { querystring: listGroupsQuerySchema, response: { 200: z.array(groupSchema) } } },
    async (request, reply) => {
      const page = await groups.listGroups(currentUser(request), request.query);
      if (page.nextOffset !== null) reply.header('x-next-offset', String(page.nextOffset));
      return page.groups;
    },
  );

  app.get(
    '/groups/public',
    {
      schema: {
        querystring: publicGroupsQuerySchema,
        response: { 200: z.array(publicGroupSummarySchema) },
      },
    },
    async (request) => groups.searchPublicGroups(currentUser(request), request.query.search),
  );

  app.get(
    '/groups/:id',
    { schema: { params: groupIdParamsSchema, response: { 200: groupSchema } } },
    async (request) => groups.getGroup(currentUser(request), request.params.id),
  );

  // A group's settings (the weekly floor top-up), for its admins.
  app.get(
    '/groups/:id/settings',
    { schema: { params: groupIdParamsSchema, response: { 200: groupSettingsSchema } } },
    async (request) => groups.getSettings(currentUser(request), request.params.id),
  );

  app.get(
    '/groups/:id/membership',
    {
      schema: {
        params: groupIdParamsSchema,
        querystring: membershipQuerySchema,
        response: { 200: membershipSchema },
      },
    },
    async (request) =>
      groups.getMembership(currentUser(request), request.params.id, request.query.user),
  );

  // An admin adds a friend or a former member (REST only: the app's "Add back" is `addBackMember`).
  app.post(
    '/groups/:id/members',
    {
      schema: {
        params: groupIdParamsSchema,
        body: groupMemberRequestSchema,
        response: { 200: groupSchema },
      },
    },
    async (request) =>
      members.addMember(currentUser(request), request.params.id, request.body.userId),
  );

  app.post(
    '/groups/:id/admins',
    {
      schema: {
        params: groupIdParamsSchema,
        body: groupAdminRequestSchema,
        response: { 200: groupSchema },
      },
    },
    async (request) =>
      members.addAdmin(currentUser(request), request.params.id, request.body.userId),
  );

  app.delete(
    '/groups/:id/admins/:userId',
    { schema: { params: groupUserParamsSchema, response: { 200: groupSchema } } },
    async (request) =>
      members.removeAdmin(currentUser(request), request.params.id, request.params.userId),
  );

  app.get(
    '/groups/:id/leaderboard',
    { schema: { params: groupIdParamsSchema, response: { 200: leaderboardResponseSchema } } },
    async (request) => leaderboard.getLeaderboard(currentUser(request), request.params.id),
  );

  // Won or lost this week or month, and the period before, in the caller's calendar.
  app.get(
    '/groups/:id/leaderboard/period',
    {
      schema: {
        params: groupIdParamsSchema,
        querystring: periodLeaderboardQuerySchema,
        response: { 200: periodLeaderboardSchema },
      },
    },
    async (request) =>
      leaderboard.getPeriodLeaderboard(currentUser(request), request.params.id, request.query),
  );

  app.get(
    '/groups/:id/members/:userId/stats',
    {
      schema: {
        params: groupUserParamsSchema,
        querystring: memberStatsQuerySchema,
        response: { 200: memberStatsSchema },
      },
    },
    async (request) =>
      memberStats.getMemberStats(
        currentUser(request),
        request.params.id,
        request.params.userId,
        request.query.vs,
      ),
  );
}

export interface InviteRoutesOptions {
  groups: GroupsService;
  rateLimits: RateLimits;
}

/**
 * POST /api/invites/preview, the one groups call for visitors not signed in: an invite link's
 * id and code in, the group's name and who invited out, so the account screens can say
 * "Ana invited you to Thursday Crew". A wrong code tells nothing; tries per IP are as few as
 * for invite-code joins (the code rides in the body, never in a URL that could be logged).
 */
export async function inviteRoutes(
  instance: FastifyInstance,
  { groups, rateLimits }: InviteRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const triesPerIp = rateLimitHook(app, visitorLookupsPerIpRule('invite-preview-ip', rateLimits));

  app.post(
    '/invites/preview',
    {
      onRequest: [triesPerIp],
      schema: { body: invitePreviewRequestSchema, response: { 200: invitePreviewSchema } },
    },
    async (request) => groups.previewInvite(request.body.groupId, request.body.inviteCode),
  );
}
