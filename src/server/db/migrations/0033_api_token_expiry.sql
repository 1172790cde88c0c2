-- Personal API tokens may expire (src/server/auth/api-token-auth.ts): null is never; from then on
-- the token answers 401, as a revoked one does.
ALTER TABLE "api_tokens" ADD COLUMN "expires_at" timestamp with time zone;
