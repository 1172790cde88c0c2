-- A group's outgoing webhooks and their outbox (src/server/db/webhooks-schema.ts), and the
-- inbox entry that tells admins a failing hook was paused (docs/integrations.md "Webhooks").
CREATE TABLE "group_webhooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"post_results" boolean DEFAULT false NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paused_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"weekly_sent_for" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"hook_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"dedupe_key" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"response_status" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_state_check" CHECK ("webhook_deliveries"."state" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "group_webhooks" ADD CONSTRAINT "group_webhooks_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_webhooks" ADD CONSTRAINT "group_webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_hook_id_group_webhooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."group_webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_webhooks_group_idx" ON "group_webhooks" USING btree ("group_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_hook_idx" ON "webhook_deliveries" USING btree ("hook_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_dedupe_idx" ON "webhook_deliveries" USING btree ("hook_id","dedupe_key") WHERE "webhook_deliveries"."dedupe_key" is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('betCreated', 'closesSoon', 'resolveReminder', 'betResult', 'memberJoined', 'comments', 'resultUndone', 'disputeOpened', 'disputeClosed', 'floorTopUp', 'oddsChanged', 'seasonEnded', 'removedFromGroup', 'webhookPaused'));