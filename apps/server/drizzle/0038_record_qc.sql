CREATE TABLE "record_qc_faults" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"check" text NOT NULL,
	"severity" text NOT NULL,
	"points" smallint NOT NULL,
	"visit_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"document_id" bigint,
	"department" text DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_qc_faults" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "record_qc_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"checks" text[] DEFAULT '{}'::text[] NOT NULL,
	"departments" text[] DEFAULT '{}'::text[] NOT NULL,
	"admit_from" date,
	"admit_to" date,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_qc_plans" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "record_qc_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"code" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"params" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_qc_rules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "record_qc_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"plan_id" integer,
	"plan_name" text NOT NULL,
	"checks" jsonb NOT NULL,
	"scope" jsonb NOT NULL,
	"job_id" integer,
	"department_visits" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"faults" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "record_qc_faults" ADD CONSTRAINT "record_qc_faults_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_faults" ADD CONSTRAINT "record_qc_faults_task_id_record_qc_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."record_qc_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_plans" ADD CONSTRAINT "record_qc_plans_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_plans" ADD CONSTRAINT "record_qc_plans_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_rules" ADD CONSTRAINT "record_qc_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_rules" ADD CONSTRAINT "record_qc_rules_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ADD CONSTRAINT "record_qc_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ADD CONSTRAINT "record_qc_tasks_plan_id_record_qc_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."record_qc_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ADD CONSTRAINT "record_qc_tasks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ADD CONSTRAINT "record_qc_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_qc_faults_task" ON "record_qc_faults" USING btree ("task_id","department");--> statement-breakpoint
CREATE INDEX "record_qc_faults_app" ON "record_qc_faults" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "record_qc_plans_app" ON "record_qc_plans" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "record_qc_rules_app_code" ON "record_qc_rules" USING btree ("app_id","code");--> statement-breakpoint
CREATE INDEX "record_qc_tasks_app" ON "record_qc_tasks" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "record_qc_faults" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "record_qc_plans" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "record_qc_rules" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "record_qc_tasks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "record_qc_rules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "record_qc_plans" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "record_qc_faults" FORCE ROW LEVEL SECURITY;