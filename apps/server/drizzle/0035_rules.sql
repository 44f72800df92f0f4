CREATE TABLE "clinical_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"when" jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clinical_rules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "rule_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"rule_id" integer NOT NULL,
	"rule_version" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"kind" text NOT NULL,
	"level" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_results" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "rule_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"rule_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"scope" jsonb NOT NULL,
	"job_id" integer,
	"patients" integer DEFAULT 0 NOT NULL,
	"results" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "rule_samples" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"rule_id" integer NOT NULL,
	"name" text NOT NULL,
	"patient_id" integer,
	"attributes" jsonb,
	"expected_fired" boolean NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_samples" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "clinical_rules" ADD CONSTRAINT "clinical_rules_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinical_rules" ADD CONSTRAINT "clinical_rules_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_run_id_rule_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."rule_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_rule_id_clinical_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."clinical_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_samples" ADD CONSTRAINT "rule_samples_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_samples" ADD CONSTRAINT "rule_samples_rule_id_clinical_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."clinical_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_samples" ADD CONSTRAINT "rule_samples_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_samples" ADD CONSTRAINT "rule_samples_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinical_rules_app" ON "clinical_rules" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "rule_results_run" ON "rule_results" USING btree ("run_id","kind");--> statement-breakpoint
CREATE INDEX "rule_results_patient" ON "rule_results" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "rule_results_app" ON "rule_results" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "rule_runs_app" ON "rule_runs" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "rule_samples_rule" ON "rule_samples" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "rule_samples_app" ON "rule_samples" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "clinical_rules" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "rule_results" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "rule_runs" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "rule_samples" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "clinical_rules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "rule_samples" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "rule_runs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "rule_results" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_element_subscriptions" (
	"element_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"seen_version" integer NOT NULL,
	"seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_element_subscriptions_element_id_user_id_pk" PRIMARY KEY("element_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "data_element_subscriptions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_element_versions" (
	"element_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_element_versions_element_id_version_pk" PRIMARY KEY("element_id","version")
);
--> statement-breakpoint
ALTER TABLE "data_element_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_elements" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"code" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_elements" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_element_subscriptions" ADD CONSTRAINT "data_element_subscriptions_element_id_data_elements_id_fk" FOREIGN KEY ("element_id") REFERENCES "public"."data_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_element_subscriptions" ADD CONSTRAINT "data_element_subscriptions_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_element_subscriptions" ADD CONSTRAINT "data_element_subscriptions_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_element_versions" ADD CONSTRAINT "data_element_versions_element_id_data_elements_id_fk" FOREIGN KEY ("element_id") REFERENCES "public"."data_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_element_versions" ADD CONSTRAINT "data_element_versions_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_element_versions" ADD CONSTRAINT "data_element_versions_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_elements" ADD CONSTRAINT "data_elements_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_elements" ADD CONSTRAINT "data_elements_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_element_subscriptions_user" ON "data_element_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "data_element_subscriptions_app" ON "data_element_subscriptions" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "data_element_versions_app" ON "data_element_versions" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "data_elements_app" ON "data_elements" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_element_subscriptions" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_element_versions" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_elements" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "data_elements" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_element_versions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_element_subscriptions" FORCE ROW LEVEL SECURITY;
