CREATE TABLE "job_retries" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"job_id" bigint NOT NULL,
	"retry_job_id" bigint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"job_id" bigint,
	"due_at" timestamp with time zone,
	"trigger" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_job_id" bigint,
	"last_error" jsonb,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_retries" ADD CONSTRAINT "job_retries_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_retries" ADD CONSTRAINT "job_retries_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_retries" ADD CONSTRAINT "job_retries_retry_job_id_jobs_id_fk" FOREIGN KEY ("retry_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_retries" ADD CONSTRAINT "job_retries_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_last_job_id_jobs_id_fk" FOREIGN KEY ("last_job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_retries_retry" ON "job_retries" USING btree ("retry_job_id");--> statement-breakpoint
CREATE INDEX "job_retries_job" ON "job_retries" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_due" ON "schedule_runs" USING btree ("schedule_id","due_at");--> statement-breakpoint
CREATE INDEX "schedule_runs_job" ON "schedule_runs" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_app_name" ON "schedules" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "schedules_due" ON "schedules" USING btree ("enabled","next_run_at");