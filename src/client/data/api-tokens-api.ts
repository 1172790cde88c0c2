import type { ApiToken, CreateApiTokenRequest, CreatedApiToken } from '../../domain/api-tokens';
import type { MessageResponse } from '../../domain/auth';
import { API_BASE } from '../../domain/constants';
import { api } from './session';

// Personal API tokens as actions the Profile screens call. Online only, like a sign-in code:
// a new token is shown the moment the server makes it, and never again.

const BASE = `${API_BASE}/tokens`;

export function listApiTokens(): Promise<ApiToken[]> {
  return api.get<ApiToken[]>(BASE);
}

export function createApiToken(request: CreateApiTokenRequest): Promise<CreatedApiToken> {
  return api.post<CreatedApiToken>(BASE, request);
}

export function revokeApiToken(id: number): Promise<MessageResponse> {
  return api.delete<MessageResponse>(`${BASE}/${id}`);
}
