import { describe, expect, it } from 'vitest';
import type { Group } from '../../../src/domain/groups';
import { useTestServer } from '../harness';
import { createGroup, createPlayer, uniqueGroupName } from './group.factories';

// A public group is joined by its name, so two public names that render alike would send a
// player into the wrong group (issue 41, finding 9). Names are kept normalised
// (src/domain/text-rules.ts) and unique by that form, without case.

const server = useTestServer();

/** The same name as "Café Crew …" would render, written four other ways. */
function lookalikesOf(name: string): string[] {
  const nfd = name.normalize('NFD');
  return [
    nfd,
    name.replace(' ', '\u200B '),
    name.replace(' ', '\u00A0'),
    `\uFEFF${name.replace(' ', '  ')}`,
  ].filter((lookalike) => lookalike !== name);
}

describe('public group names', () => {
  it('refuses a name that renders like a public group’s with 409 group_name_taken', async () => {
    const creator = await createPlayer(server);
    const name = uniqueGroupName('Caf\u00e9 Crew');
    await createGroup(server, creator, { name });
    const rival = await createPlayer(server);
    for (const lookalike of lookalikesOf(name)) {
      const response = await server.request('POST', '/api/groups', {
        token: rival.accessToken,
        body: { name: lookalike, privacy: 'public', defaultPoints: 100 },
      });
      expect(response.status, JSON.stringify(lookalike)).toBe(409);
      expect(response.body.code).toBe('group_name_taken');
    }
  });

  it('refuses renaming a public group to a look-alike of another’s name', async () => {
    const creator = await createPlayer(server);
    const name = uniqueGroupName('Caf\u00e9 Crew');
    await createGroup(server, creator, { name });
    const other = await createGroup(server, creator);
    const response = await server.request('PATCH', `/api/groups/${other.id}`, {
      token: creator.accessToken,
      body: { name: name.normalize('NFD').replace(' ', '\u00A0') },
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('group_name_taken');
  });

  it('stores the name normalised and finds it by any look-alike', async () => {
    const creator = await createPlayer(server);
    const name = uniqueGroupName('Caf\u00e9 Crew');
    const group = await createGroup(server, creator, { name: `${name.normalize('NFD')}\u200B` });
    expect(group.name).toBe(name);
    const joiner = await createPlayer(server);
    const response = await server.request<Group>('POST', '/api/groups/join-public', {
      token: joiner.accessToken,
      body: { groupName: name.normalize('NFD').replace(' ', '\u00A0') },
    });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(group.id);
  });

  it('refuses a group name made of invisible characters', async () => {
    const creator = await createPlayer(server);
    const response = await server.request('POST', '/api/groups', {
      token: creator.accessToken,
      body: { name: '\u200B\u200B\u0301\u0301\u0301', privacy: 'public', defaultPoints: 100 },
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors).toEqual({
      name: 'Group name must contain a visible character',
    });
  });
});
