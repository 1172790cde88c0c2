CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"privacy" text NOT NULL,
	"invite_code" text,
	"default_points" integer NOT NULL,
	"created_by_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "groups_privacy_check" CHECK ("groups"."privacy" in ('public', 'private')),
	CONSTRAINT "groups_invite_code_check" CHECK (("groups"."privacy" = 'private') = ("groups"."invite_code" is not null)),
	CONSTRAINT "groups_default_points_check" CHECK ("groups"."default_points" > 0)
);
--> statement-breakpoint
CREATE TABLE "ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"total_delta" integer NOT NULL,
	"available_delta" integer NOT NULL,
	"bet_id" integer,
	"wager_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_kind_check" CHECK ("ledger"."kind" in ('join_grant', 'wager_placed', 'wager_changed', 'payout', 'refund'))
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"total_points" integer NOT NULL,
	"available_points" integer NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"left_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_group_id_user_id_pk" PRIMARY KEY("group_id","user_id"),
	CONSTRAINT "memberships_role_check" CHECK ("memberships"."role" in ('member', 'admin')),
	CONSTRAINT "memberships_points_check" CHECK (0 <= "memberships"."available_points" and "memberships"."available_points" <= "memberships"."total_points")
);
--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_membership_fk" FOREIGN KEY ("group_id","user_id") REFERENCES "public"."memberships"("group_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "groups_public_name_unique" ON "groups" USING btree (lower("name")) WHERE "groups"."privacy" = 'public';--> statement-breakpoint
CREATE INDEX "ledger_group_user_idx" ON "ledger" USING btree ("group_id","user_id");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");