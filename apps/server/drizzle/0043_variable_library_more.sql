CREATE TABLE "document_annotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"document_id" bigint NOT NULL,
	"spans" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_annotations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "external_datasets" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"layout" text NOT NULL,
	"columns" jsonb NOT NULL,
	"rows" jsonb NOT NULL,
	"row_count" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_datasets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "mc_federated_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"topic_id" integer NOT NULL,
	"model" text NOT NULL,
	"params" jsonb NOT NULL,
	"job_id" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mc_federated_jobs_model" CHECK ("mc_federated_jobs"."model" in ('homoLR', 'heteroLR', 'boost', 'binning', 'evaluation'))
);
--> statement-breakpoint
ALTER TABLE "mc_federated_jobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_group_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"template_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "variable_group_templates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_set_members" (
	"set_id" integer NOT NULL,
	"variable_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "variable_set_members_set_id_variable_id_pk" PRIMARY KEY("set_id","variable_id")
);
--> statement-breakpoint
ALTER TABLE "variable_set_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "variable_sets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"spec" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "variable_templates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_transfer_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"target_model" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"mappings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "variable_transfer_rules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_transfer_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"rule_id" integer,
	"rule_name" text NOT NULL,
	"target_model" text DEFAULT '' NOT NULL,
	"mappings" jsonb NOT NULL,
	"job_id" bigint,
	"patients" integer DEFAULT 0 NOT NULL,
	"values" integer DEFAULT 0 NOT NULL,
	"summary" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"finished_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "variable_transfer_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_transfer_values" (
	"run_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"code" text NOT NULL,
	"value" text,
	CONSTRAINT "variable_transfer_values_run_id_patient_id_code_pk" PRIMARY KEY("run_id","patient_id","code")
);
--> statement-breakpoint
ALTER TABLE "variable_transfer_values" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "document_annotations" ADD CONSTRAINT "document_annotations_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_annotations" ADD CONSTRAINT "document_annotations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_annotations" ADD CONSTRAINT "document_annotations_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_datasets" ADD CONSTRAINT "external_datasets_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_datasets" ADD CONSTRAINT "external_datasets_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_federated_jobs" ADD CONSTRAINT "mc_federated_jobs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_federated_jobs" ADD CONSTRAINT "mc_federated_jobs_topic_id_mc_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."mc_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_federated_jobs" ADD CONSTRAINT "mc_federated_jobs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_federated_jobs" ADD CONSTRAINT "mc_federated_jobs_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_group_templates" ADD CONSTRAINT "variable_group_templates_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_group_templates" ADD CONSTRAINT "variable_group_templates_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_set_members" ADD CONSTRAINT "variable_set_members_set_id_variable_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."variable_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_set_members" ADD CONSTRAINT "variable_set_members_variable_id_variables_id_fk" FOREIGN KEY ("variable_id") REFERENCES "public"."variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_set_members" ADD CONSTRAINT "variable_set_members_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_sets" ADD CONSTRAINT "variable_sets_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_sets" ADD CONSTRAINT "variable_sets_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_templates" ADD CONSTRAINT "variable_templates_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_templates" ADD CONSTRAINT "variable_templates_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_rules" ADD CONSTRAINT "variable_transfer_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_rules" ADD CONSTRAINT "variable_transfer_rules_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_runs" ADD CONSTRAINT "variable_transfer_runs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_runs" ADD CONSTRAINT "variable_transfer_runs_rule_id_variable_transfer_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."variable_transfer_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_runs" ADD CONSTRAINT "variable_transfer_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_runs" ADD CONSTRAINT "variable_transfer_runs_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_values" ADD CONSTRAINT "variable_transfer_values_run_id_variable_transfer_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."variable_transfer_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_transfer_values" ADD CONSTRAINT "variable_transfer_values_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_annotations_document" ON "document_annotations" USING btree ("app_id","document_id");--> statement-breakpoint
CREATE INDEX "document_annotations_app" ON "document_annotations" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "external_datasets_app_name" ON "external_datasets" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "external_datasets_app" ON "external_datasets" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "mc_federated_jobs_topic" ON "mc_federated_jobs" USING btree ("topic_id");--> statement-breakpoint
CREATE UNIQUE INDEX "variable_group_templates_app_name" ON "variable_group_templates" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "variable_set_members_variable" ON "variable_set_members" USING btree ("variable_id");--> statement-breakpoint
CREATE UNIQUE INDEX "variable_sets_app_name" ON "variable_sets" USING btree ("app_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "variable_templates_app_name" ON "variable_templates" USING btree ("app_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "variable_transfer_rules_app_name" ON "variable_transfer_rules" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "variable_transfer_runs_app" ON "variable_transfer_runs" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "document_annotations" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "external_datasets" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "mc_federated_jobs" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_group_templates" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_set_members" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_sets" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_templates" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_transfer_rules" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_transfer_runs" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_transfer_values" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "document_annotations" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "external_datasets" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "mc_federated_jobs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_group_templates" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_set_members" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_sets" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_templates" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_transfer_rules" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_transfer_runs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "variable_transfer_values" FORCE ROW LEVEL SECURITY;
