CREATE TABLE "collection_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"table_name" text NOT NULL,
	"record_id" bigint NOT NULL,
	"patient_id" bigint,
	"op" text NOT NULL,
	"diff" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_changes_op" CHECK ("collection_changes"."op" in ('insert', 'update'))
);
--> statement-breakpoint
ALTER TABLE "collection_changes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collection_rejects" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"source_key" text NOT NULL,
	"field" text DEFAULT '' NOT NULL,
	"reason" jsonb NOT NULL,
	"row" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_rejects" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collection_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"job_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_inserted" integer DEFAULT 0 NOT NULL,
	"rows_updated" integer DEFAULT 0 NOT NULL,
	"rows_unchanged" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"templates" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_runs_status" CHECK ("collection_runs"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
	CONSTRAINT "collection_runs_trigger" CHECK ("collection_runs"."trigger" in ('manual', 'schedule'))
);
--> statement-breakpoint
ALTER TABLE "collection_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collection_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_sources_kind" CHECK ("collection_sources"."kind" in ('postgresql', 'mysql', 'hl7'))
);
--> statement-breakpoint
ALTER TABLE "collection_sources" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collection_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"template_ids" jsonb NOT NULL,
	"batch_size" integer DEFAULT 1000 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"watermarks" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collection_template_versions" (
	"template_id" integer NOT NULL,
	"version" integer NOT NULL,
	"app_id" integer NOT NULL,
	"spec" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_template_versions_template_id_version_pk" PRIMARY KEY("template_id","version")
);
--> statement-breakpoint
ALTER TABLE "collection_template_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collection_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"source_id" integer NOT NULL,
	"name" text NOT NULL,
	"target" text NOT NULL,
	"spec" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_templates_target" CHECK ("collection_templates"."target" in ('patients', 'visits', 'diagnoses', 'allergies', 'orders', 'labResults', 'examReports', 'operations', 'physicalExams', 'vitalSigns', 'documents'))
);
--> statement-breakpoint
ALTER TABLE "collection_templates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "hl7_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"source_id" integer NOT NULL,
	"control_id" text NOT NULL,
	"type" text NOT NULL,
	"raw" text NOT NULL,
	"status" text DEFAULT 'stored' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "hl7_messages_status" CHECK ("hl7_messages"."status" in ('stored', 'processed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "hl7_messages" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_changes" ADD CONSTRAINT "collection_changes_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_changes" ADD CONSTRAINT "collection_changes_run_id_collection_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."collection_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_rejects" ADD CONSTRAINT "collection_rejects_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_rejects" ADD CONSTRAINT "collection_rejects_run_id_collection_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."collection_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_runs" ADD CONSTRAINT "collection_runs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_runs" ADD CONSTRAINT "collection_runs_task_id_collection_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."collection_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_runs" ADD CONSTRAINT "collection_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_runs" ADD CONSTRAINT "collection_runs_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_sources" ADD CONSTRAINT "collection_sources_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_sources" ADD CONSTRAINT "collection_sources_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_tasks" ADD CONSTRAINT "collection_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_tasks" ADD CONSTRAINT "collection_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_template_versions" ADD CONSTRAINT "collection_template_versions_template_id_collection_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."collection_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_template_versions" ADD CONSTRAINT "collection_template_versions_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_template_versions" ADD CONSTRAINT "collection_template_versions_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_templates" ADD CONSTRAINT "collection_templates_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_templates" ADD CONSTRAINT "collection_templates_source_id_collection_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."collection_sources"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_templates" ADD CONSTRAINT "collection_templates_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_messages" ADD CONSTRAINT "hl7_messages_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_messages" ADD CONSTRAINT "hl7_messages_source_id_collection_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."collection_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_changes_run" ON "collection_changes" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "collection_changes_app_patient" ON "collection_changes" USING btree ("app_id","patient_id","id");--> statement-breakpoint
CREATE INDEX "collection_changes_app_table" ON "collection_changes" USING btree ("app_id","table_name","id");--> statement-breakpoint
CREATE INDEX "collection_rejects_run" ON "collection_rejects" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "collection_runs_task" ON "collection_runs" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "collection_runs_app_created" ON "collection_runs" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_sources_app_name" ON "collection_sources" USING btree ("app_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_tasks_app_name" ON "collection_tasks" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "collection_template_versions_app" ON "collection_template_versions" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_templates_app_name" ON "collection_templates" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "collection_templates_source" ON "collection_templates" USING btree ("source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hl7_messages_source_control" ON "hl7_messages" USING btree ("source_id","control_id");--> statement-breakpoint
CREATE INDEX "hl7_messages_pending" ON "hl7_messages" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "hl7_messages_app" ON "hl7_messages" USING btree ("app_id","id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_changes" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_rejects" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_runs" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_sources" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_tasks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_template_versions" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "collection_templates" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "hl7_messages" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "collection_sources" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_templates" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_template_versions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_runs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_rejects" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "collection_changes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "hl7_messages" FORCE ROW LEVEL SECURITY;