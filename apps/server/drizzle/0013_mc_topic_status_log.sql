CREATE TABLE "mc_topic_status_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"topic_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"user_id" integer,
	"user_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mc_topic_status_log" ADD CONSTRAINT "mc_topic_status_log_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_status_log" ADD CONSTRAINT "mc_topic_status_log_topic_id_mc_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."mc_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_status_log" ADD CONSTRAINT "mc_topic_status_log_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mc_topic_status_log_topic" ON "mc_topic_status_log" USING btree ("topic_id","at");