CREATE TABLE "qc_faults" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"task_rule_id" integer NOT NULL,
	"table_key" text NOT NULL,
	"row_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"value" text,
	"other_value" text
);
--> statement-breakpoint
CREATE TABLE "qc_plan_rules" (
	"plan_id" integer NOT NULL,
	"rule_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "qc_plan_rules_plan_id_rule_id_pk" PRIMARY KEY("plan_id","rule_id")
);
--> statement-breakpoint
CREATE TABLE "qc_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qc_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"table_key" text NOT NULL,
	"kind" text NOT NULL,
	"column_key" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"severity" text DEFAULT 'error' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qc_task_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"rule_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"rule" jsonb NOT NULL,
	"skipped" boolean DEFAULT false NOT NULL,
	"checked" integer DEFAULT 0 NOT NULL,
	"faults" integer DEFAULT 0 NOT NULL,
	"stored" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qc_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"plan_id" integer,
	"plan_name" text NOT NULL,
	"job_id" bigint,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "omop_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"source_code" text NOT NULL,
	"concept_id" integer NOT NULL,
	"concept_name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "omop_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"source_table" text NOT NULL,
	"target_table" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "omop_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"job_id" bigint NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "qc_faults" ADD CONSTRAINT "qc_faults_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_faults" ADD CONSTRAINT "qc_faults_task_id_qc_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."qc_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_faults" ADD CONSTRAINT "qc_faults_task_rule_id_qc_task_rules_id_fk" FOREIGN KEY ("task_rule_id") REFERENCES "public"."qc_task_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_plan_rules" ADD CONSTRAINT "qc_plan_rules_plan_id_qc_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."qc_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_plan_rules" ADD CONSTRAINT "qc_plan_rules_rule_id_qc_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."qc_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_plans" ADD CONSTRAINT "qc_plans_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_plans" ADD CONSTRAINT "qc_plans_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_rules" ADD CONSTRAINT "qc_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_rules" ADD CONSTRAINT "qc_rules_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_task_rules" ADD CONSTRAINT "qc_task_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_task_rules" ADD CONSTRAINT "qc_task_rules_task_id_qc_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."qc_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_task_rules" ADD CONSTRAINT "qc_task_rules_rule_id_qc_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."qc_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_tasks" ADD CONSTRAINT "qc_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_tasks" ADD CONSTRAINT "qc_tasks_plan_id_qc_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."qc_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_tasks" ADD CONSTRAINT "qc_tasks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_tasks" ADD CONSTRAINT "qc_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "omop_mappings" ADD CONSTRAINT "omop_mappings_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "omop_mappings" ADD CONSTRAINT "omop_mappings_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "omop_rules" ADD CONSTRAINT "omop_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "omop_tasks" ADD CONSTRAINT "omop_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "omop_tasks" ADD CONSTRAINT "omop_tasks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "omop_tasks" ADD CONSTRAINT "omop_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qc_faults_task" ON "qc_faults" USING btree ("task_id","task_rule_id","id");--> statement-breakpoint
CREATE INDEX "qc_faults_task_patient" ON "qc_faults" USING btree ("task_id","patient_id");--> statement-breakpoint
CREATE INDEX "qc_plan_rules_rule" ON "qc_plan_rules" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "qc_plans_app" ON "qc_plans" USING btree ("app_id","id");--> statement-breakpoint
CREATE INDEX "qc_rules_app" ON "qc_rules" USING btree ("app_id","id");--> statement-breakpoint
CREATE INDEX "qc_task_rules_task" ON "qc_task_rules" USING btree ("task_id","position");--> statement-breakpoint
CREATE INDEX "qc_tasks_app" ON "qc_tasks" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "omop_mappings_app_kind_code" ON "omop_mappings" USING btree ("app_id","kind","source_code");--> statement-breakpoint
CREATE INDEX "omop_mappings_app_updated" ON "omop_mappings" USING btree ("app_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "omop_rules_app_pair" ON "omop_rules" USING btree ("app_id","source_table","target_table") WHERE "omop_rules"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "omop_rules_app" ON "omop_rules" USING btree ("app_id","id");--> statement-breakpoint
CREATE INDEX "omop_tasks_app" ON "omop_tasks" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "omop_tasks_job" ON "omop_tasks" USING btree ("job_id");