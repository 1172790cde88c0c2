-- An Idempotency-Key is recorded in its write's own transaction, with the answer (src/server/idempotency):
-- no row waits 'pending' any more. One left by the old code (a request in flight at the upgrade, or one
-- that died) is forgotten: its retry runs as new, as it did once its lease ended.
DELETE FROM "idempotency_keys" WHERE "status" = 'pending' OR "status_code" IS NULL OR "response_headers" IS NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_status_check";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "status_code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_headers" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "completed_at";