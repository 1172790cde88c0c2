import { expect, type APIRequestContext } from '@playwright/test';
import { authHeaders, type Player } from './groups.helpers';

// Seasons through the API, for specs that look at the seasons screens rather than drive them.

export async function startSeasonViaApi(
  request: APIRequestContext,
  admin: Player,
  groupId: number,
  season: { name: string; days?: number; resetPoints?: boolean },
): Promise<{ id: number }> {
  const response = await request.post(`/api/groups/${groupId}/seasons`, {
    headers: await authHeaders(request, admin),
    data: {
      name: season.name,
      endsAt: new Date(Date.now() + (season.days ?? 5) * 86_400_000 + 3_600_000).toISOString(),
      resetPoints: season.resetPoints ?? false,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

export async function endSeasonViaApi(
  request: APIRequestContext,
  admin: Player,
  groupId: number,
  seasonId: number,
) {
  const response = await request.post(`/api/groups/${groupId}/seasons/${seasonId}/end`, {
    headers: await authHeaders(request, admin),
  });
  expect(response.status(), await response.text()).toBe(200);
}
