CREATE TABLE "client_mutation_outcomes" (
	"user_id" integer NOT NULL,
	"client_group_id" text NOT NULL,
	"client_id" text NOT NULL,
	"mutation_id" integer NOT NULL,
	"created_id" integer,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "client_mutation_outcomes_pk" PRIMARY KEY("client_group_id","client_id","mutation_id")
);
--> statement-breakpoint
CREATE TABLE "client_mutations" (
	"user_id" integer NOT NULL,
	"client_group_id" text NOT NULL,
	"client_id" text NOT NULL,
	"last_mutation_id" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_mutations_pk" PRIMARY KEY("client_group_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "client_mutation_outcomes" ADD CONSTRAINT "client_mutation_outcomes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_mutations" ADD CONSTRAINT "client_mutations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_mutation_outcomes_group_change_idx" ON "client_mutation_outcomes" USING btree ("client_group_id","change_txid");--> statement-breakpoint
CREATE INDEX "client_mutation_outcomes_created_at_idx" ON "client_mutation_outcomes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "client_mutation_outcomes_user_idx" ON "client_mutation_outcomes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "client_mutations_user_idx" ON "client_mutations" USING btree ("user_id");