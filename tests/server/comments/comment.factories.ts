import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import type { Comment } from '../../../src/domain/comments';
import type { TestServer } from '../harness';

// Factories for the comments tests: everything goes through HTTP, as a client would.

/** The raw response (a comment or an error body), for tests of refusals. */
export function postComment(
  server: TestServer,
  user: AuthResponse,
  bet: Pick<Bet, 'id'>,
  text: unknown,
  headers: Record<string, string> = {},
) {
  return server.request('POST', `/api/bets/${bet.id}/comments`, {
    token: user.accessToken,
    body: { text },
    headers,
  });
}

export async function addComment(
  server: TestServer,
  user: AuthResponse,
  bet: Pick<Bet, 'id'>,
  text: string,
): Promise<Comment> {
  const response = await postComment(server, user, bet, text);
  if (response.status !== 201)
    throw new Error(`postComment failed: ${response.status} ${response.text}`);
  return response.body as Comment;
}

export function listComments(server: TestServer, user: AuthResponse, bet: Pick<Bet, 'id'>) {
  return server.request<Comment[]>('GET', `/api/bets/${bet.id}/comments`, {
    token: user.accessToken,
  });
}

export function deleteComment(
  server: TestServer,
  user: AuthResponse,
  comment: Pick<Comment, 'id'>,
) {
  return server.request('DELETE', `/api/comments/${comment.id}`, { token: user.accessToken });
}
