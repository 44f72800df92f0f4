CREATE TABLE "cleaned_values" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" integer,
	"rule_ref" text NOT NULL,
	"patient_id" bigint NOT NULL,
	"document_id" bigint NOT NULL,
	"visit_id" bigint,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"value_num" double precision,
	"value_high" double precision,
	"value_text" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"section" text DEFAULT '' NOT NULL,
	"sentence" text NOT NULL,
	"sentence_start" integer NOT NULL,
	"span_start" integer NOT NULL,
	"span_end" integer NOT NULL,
	"qualifiers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fault" text DEFAULT '' NOT NULL,
	"fault_detail" text DEFAULT '' NOT NULL,
	"observed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cleaned_values" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cleaning_marks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"document_id" bigint NOT NULL,
	"rule_ref" text NOT NULL,
	"code" text NOT NULL,
	"span_start" integer NOT NULL,
	"correct" boolean NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cleaning_marks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cleaning_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"definition" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cleaning_rules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cleaning_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"rules" jsonb NOT NULL,
	"scope" jsonb NOT NULL,
	"job_id" bigint,
	"cancelled_at" timestamp with time zone,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cleaning_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "cleaned_values" ADD CONSTRAINT "cleaned_values_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaned_values" ADD CONSTRAINT "cleaned_values_task_id_cleaning_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."cleaning_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaned_values" ADD CONSTRAINT "cleaned_values_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaned_values" ADD CONSTRAINT "cleaned_values_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_marks" ADD CONSTRAINT "cleaning_marks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_marks" ADD CONSTRAINT "cleaning_marks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_marks" ADD CONSTRAINT "cleaning_marks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_rules" ADD CONSTRAINT "cleaning_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_rules" ADD CONSTRAINT "cleaning_rules_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_tasks" ADD CONSTRAINT "cleaning_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_tasks" ADD CONSTRAINT "cleaning_tasks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleaning_tasks" ADD CONSTRAINT "cleaning_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cleaned_values_patient" ON "cleaned_values" USING btree ("app_id","patient_id","code","observed_at");--> statement-breakpoint
CREATE INDEX "cleaned_values_document" ON "cleaned_values" USING btree ("document_id","rule_ref");--> statement-breakpoint
CREATE INDEX "cleaned_values_task" ON "cleaned_values" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cleaning_marks_one" ON "cleaning_marks" USING btree ("app_id","document_id","rule_ref","code","span_start");--> statement-breakpoint
CREATE UNIQUE INDEX "cleaning_rules_app_name" ON "cleaning_rules" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "cleaning_tasks_app" ON "cleaning_tasks" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "cleaned_values" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "cleaning_marks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "cleaning_rules" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "cleaning_tasks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "cleaning_rules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "cleaning_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "cleaned_values" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "cleaning_marks" FORCE ROW LEVEL SECURITY;
