CREATE TABLE "observation_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"job_id" bigint,
	"mode" text NOT NULL,
	"from_watermark" bigint,
	"to_watermark" bigint,
	"counts" jsonb,
	"finished_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "observation_runs_mode" CHECK ("observation_runs"."mode" in ('full', 'incremental'))
);
--> statement-breakpoint
ALTER TABLE "observation_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "observation_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"watermark" bigint,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "observation_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "observations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"domain" text NOT NULL,
	"concept" text NOT NULL,
	"local_code" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"value_num" double precision,
	"value_text" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"department" text DEFAULT '' NOT NULL,
	"source_id" bigint NOT NULL,
	"transformed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "observations_domain" CHECK ("observations"."domain" in ('visit', 'diagnosis', 'lab', 'operation', 'drug', 'vital'))
);
--> statement-breakpoint
ALTER TABLE "observations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "job_kind_settings" (
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"max_running" integer,
	"batch_size" integer,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_kind_settings_app_id_kind_pk" PRIMARY KEY("app_id","kind")
);
--> statement-breakpoint
ALTER TABLE "job_kind_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "odm_generations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"topic_id" integer NOT NULL,
	"job_id" bigint,
	"file_name" text NOT NULL,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "odm_generations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "odm_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"from_date" date,
	"to_date" date,
	"elements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "odm_topics" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "observation_runs" ADD CONSTRAINT "observation_runs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_runs" ADD CONSTRAINT "observation_runs_task_id_observation_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."observation_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_runs" ADD CONSTRAINT "observation_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_runs" ADD CONSTRAINT "observation_runs_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_tasks" ADD CONSTRAINT "observation_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_tasks" ADD CONSTRAINT "observation_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observations" ADD CONSTRAINT "observations_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observations" ADD CONSTRAINT "observations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_kind_settings" ADD CONSTRAINT "job_kind_settings_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_kind_settings" ADD CONSTRAINT "job_kind_settings_updated_by_users_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_generations" ADD CONSTRAINT "odm_generations_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_generations" ADD CONSTRAINT "odm_generations_topic_id_odm_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."odm_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_generations" ADD CONSTRAINT "odm_generations_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_generations" ADD CONSTRAINT "odm_generations_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_topics" ADD CONSTRAINT "odm_topics_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_topics" ADD CONSTRAINT "odm_topics_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odm_topics" ADD CONSTRAINT "odm_topics_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "observation_runs_task" ON "observation_runs" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "observation_runs_app" ON "observation_runs" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "observation_tasks_app" ON "observation_tasks" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "observations_app_domain_source" ON "observations" USING btree ("app_id","domain","source_id");--> statement-breakpoint
CREATE INDEX "observations_app_domain_start" ON "observations" USING btree ("app_id","domain","start_at");--> statement-breakpoint
CREATE INDEX "observations_patient" ON "observations" USING btree ("patient_id","domain","start_at");--> statement-breakpoint
CREATE INDEX "odm_generations_topic" ON "odm_generations" USING btree ("topic_id","id");--> statement-breakpoint
CREATE INDEX "odm_generations_app" ON "odm_generations" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "odm_topics_app_subject" ON "odm_topics" USING btree ("app_id","subject_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "observation_runs" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "observation_tasks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "observations" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "job_kind_settings" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "odm_generations" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "odm_topics" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "observations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "observation_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "observation_runs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "odm_topics" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "odm_generations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "job_kind_settings" FORCE ROW LEVEL SECURITY;
