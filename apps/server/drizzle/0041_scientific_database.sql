CREATE TABLE "sci_transform_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"subject_id" integer NOT NULL,
	"cohort" text NOT NULL,
	"library_id" integer,
	"variable_group_id" integer,
	"variable_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sci_transform_tasks_cohort" CHECK ("sci_transform_tasks"."cohort" in ('subject', 'library'))
);
--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "sci_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'building' NOT NULL,
	"job_id" bigint,
	"spec" jsonb NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stats" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text DEFAULT '' NOT NULL,
	"build_ms" integer DEFAULT 0 NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"built_at" timestamp with time zone,
	CONSTRAINT "sci_snapshots_status" CHECK ("sci_snapshots"."status" in ('building', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "sci_snapshots" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "sci_snapshot_parts" (
	"snapshot_id" integer NOT NULL,
	"part" integer NOT NULL,
	"app_id" integer NOT NULL,
	"bytes" bytea NOT NULL,
	CONSTRAINT "sci_snapshot_parts_snapshot_id_part_pk" PRIMARY KEY("snapshot_id","part")
);
--> statement-breakpoint
ALTER TABLE "sci_snapshot_parts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" ADD CONSTRAINT "sci_transform_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" ADD CONSTRAINT "sci_transform_tasks_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" ADD CONSTRAINT "sci_transform_tasks_library_id_disease_libraries_id_fk" FOREIGN KEY ("library_id") REFERENCES "public"."disease_libraries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" ADD CONSTRAINT "sci_transform_tasks_variable_group_id_variable_groups_id_fk" FOREIGN KEY ("variable_group_id") REFERENCES "public"."variable_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" ADD CONSTRAINT "sci_transform_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_snapshots" ADD CONSTRAINT "sci_snapshots_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_snapshots" ADD CONSTRAINT "sci_snapshots_task_id_sci_transform_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."sci_transform_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_snapshots" ADD CONSTRAINT "sci_snapshots_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_snapshots" ADD CONSTRAINT "sci_snapshots_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_snapshot_parts" ADD CONSTRAINT "sci_snapshot_parts_snapshot_id_sci_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."sci_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sci_snapshot_parts" ADD CONSTRAINT "sci_snapshot_parts_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sci_transform_tasks_app_name" ON "sci_transform_tasks" USING btree ("app_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "sci_snapshots_task_version" ON "sci_snapshots" USING btree ("task_id","version");--> statement-breakpoint
CREATE INDEX "sci_snapshots_app" ON "sci_snapshots" USING btree ("app_id","status");--> statement-breakpoint
CREATE POLICY "app_scope" ON "sci_transform_tasks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "sci_snapshots" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "sci_snapshot_parts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "sci_transform_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sci_snapshots" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sci_snapshot_parts" FORCE ROW LEVEL SECURITY;
