CREATE TABLE "allergies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"substance" text NOT NULL,
	"reaction" text DEFAULT '' NOT NULL,
	"severity" text DEFAULT '' NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diagnoses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"icd10" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'secondary' NOT NULL,
	"diagnosed_at" timestamp with time zone NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"written_at" timestamp with time zone NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"modality" text NOT NULL,
	"body_part" text DEFAULT '' NOT NULL,
	"findings" text DEFAULT '' NOT NULL,
	"conclusion" text DEFAULT '' NOT NULL,
	"exam_at" timestamp with time zone NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"job_id" bigint,
	"format" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"payload" jsonb,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lab_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"item_code" text NOT NULL,
	"item_name" text NOT NULL,
	"value_num" double precision,
	"value_text" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"ref_low" double precision,
	"ref_high" double precision,
	"abnormal_flag" text DEFAULT '' NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"code" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"operated_at" timestamp with time zone NOT NULL,
	"surgeon" text DEFAULT '' NOT NULL,
	"anaesthesia" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"category" text NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"dose" text DEFAULT '' NOT NULL,
	"dose_unit" text DEFAULT '' NOT NULL,
	"route" text DEFAULT '' NOT NULL,
	"frequency" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"stop_at" timestamp with time zone,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"mrn" text NOT NULL,
	"name" text NOT NULL,
	"gender" smallint DEFAULT 0 NOT NULL,
	"birth_date" date,
	"national_id" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "physical_exams" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"item" text NOT NULL,
	"value" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"department" text DEFAULT '' NOT NULL,
	"admit_at" timestamp with time zone NOT NULL,
	"discharge_at" timestamp with time zone,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vital_signs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"item_name" text NOT NULL,
	"value" text NOT NULL,
	"item_unit" text DEFAULT '' NOT NULL,
	"record_dt" timestamp with time zone NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "allergies" ADD CONSTRAINT "allergies_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allergies" ADD CONSTRAINT "allergies_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_reports" ADD CONSTRAINT "exam_reports_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_reports" ADD CONSTRAINT "exam_reports_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_records" ADD CONSTRAINT "import_records_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_records" ADD CONSTRAINT "import_records_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_results" ADD CONSTRAINT "lab_results_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_results" ADD CONSTRAINT "lab_results_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physical_exams" ADD CONSTRAINT "physical_exams_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physical_exams" ADD CONSTRAINT "physical_exams_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vital_signs" ADD CONSTRAINT "vital_signs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vital_signs" ADD CONSTRAINT "vital_signs_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "allergies_app_source" ON "allergies" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "allergies_patient" ON "allergies" USING btree ("patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "diagnoses_app_source" ON "diagnoses" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "diagnoses_patient" ON "diagnoses" USING btree ("patient_id","diagnosed_at");--> statement-breakpoint
CREATE INDEX "diagnoses_app_icd10" ON "diagnoses" USING btree ("app_id","icd10");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_app_source" ON "documents" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "documents_patient" ON "documents" USING btree ("patient_id","written_at");--> statement-breakpoint
CREATE INDEX "documents_search" ON "documents" USING gin (to_tsvector('simple'::regconfig, "search_text"));--> statement-breakpoint
CREATE UNIQUE INDEX "exam_reports_app_source" ON "exam_reports" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "exam_reports_patient" ON "exam_reports" USING btree ("patient_id","exam_at");--> statement-breakpoint
CREATE INDEX "import_records_app" ON "import_records" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_results_app_source" ON "lab_results" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "lab_results_patient" ON "lab_results" USING btree ("patient_id","item_code","collected_at");--> statement-breakpoint
CREATE INDEX "lab_results_app_item_value" ON "lab_results" USING btree ("app_id","item_code","value_num");--> statement-breakpoint
CREATE UNIQUE INDEX "operations_app_source" ON "operations" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "operations_patient" ON "operations" USING btree ("patient_id","operated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_app_source" ON "orders" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "orders_patient" ON "orders" USING btree ("patient_id","start_at");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_app_source" ON "patients" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_app_mrn" ON "patients" USING btree ("app_id","mrn");--> statement-breakpoint
CREATE INDEX "patients_app_name" ON "patients" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "patients_app_national_id" ON "patients" USING btree ("app_id","national_id");--> statement-breakpoint
CREATE UNIQUE INDEX "physical_exams_app_source" ON "physical_exams" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "physical_exams_patient" ON "physical_exams" USING btree ("patient_id","recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "visits_app_source" ON "visits" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "visits_patient" ON "visits" USING btree ("patient_id","admit_at");--> statement-breakpoint
CREATE UNIQUE INDEX "vital_signs_app_source" ON "vital_signs" USING btree ("app_id","source","source_id");--> statement-breakpoint
CREATE INDEX "vital_signs_patient" ON "vital_signs" USING btree ("patient_id","record_dt");--> statement-breakpoint
CREATE INDEX "jobs_status" ON "jobs" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "jobs_app" ON "jobs" USING btree ("app_id","id");