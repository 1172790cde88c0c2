CREATE TABLE "notification_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"push_off" text[] DEFAULT '{}'::text[] NOT NULL,
	"muted_group_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"muted_bet_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"group_id" integer NOT NULL,
	"bet_id" integer,
	"actor_id" integer,
	"key" text NOT NULL,
	"coalesces" boolean NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"pushed_at" timestamp with time zone,
	"version" bigint DEFAULT 0 NOT NULL,
	"change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('betCreated', 'closesSoon', 'resolveReminder', 'betResult', 'memberJoined', 'comments'))
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_once_key" ON "notifications" USING btree ("user_id","key") WHERE not "notifications"."coalesces";--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_unread_key" ON "notifications" USING btree ("user_id","key") WHERE "notifications"."coalesces" and "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_user_change_idx" ON "notifications" USING btree ("user_id","change_txid");--> statement-breakpoint
CREATE INDEX "notifications_updated_idx" ON "notifications" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "notifications_actor_idx" ON "notifications" USING btree ("actor_id");--> statement-breakpoint
-- hand-written: change tracking for the local mirror (as 0005 does): the inbox and the settings are mirrored.
CREATE TRIGGER "notifications_stamp_change" BEFORE INSERT OR UPDATE ON "notifications" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
CREATE TRIGGER "notification_settings_stamp_change" BEFORE INSERT OR UPDATE ON "notification_settings" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();
