CREATE TABLE "disease_libraries" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"disease_id" integer,
	"crf_form_id" integer NOT NULL,
	"criteria" jsonb NOT NULL,
	"source_rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filing_rule" text DEFAULT 'push' NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"push_every_hours" integer DEFAULT 0 NOT NULL,
	"next_push_at" timestamp with time zone,
	"last_push_at" timestamp with time zone,
	"last_fill_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disease_library_fill_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"library_id" integer NOT NULL,
	"job_id" bigint,
	"patient_id" bigint NOT NULL,
	"item_key" text NOT NULL,
	"outcome" text NOT NULL,
	"value" jsonb,
	"source" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disease_library_patients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"library_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"record_id" bigint,
	"filing_date" date NOT NULL,
	"reason" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"item_methods" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"unobtainable" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"push_job_id" bigint,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disease_library_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"crf_form_id" integer NOT NULL,
	"source_rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD CONSTRAINT "disease_libraries_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD CONSTRAINT "disease_libraries_disease_id_diseases_disease_id_fk" FOREIGN KEY ("disease_id") REFERENCES "public"."diseases"("disease_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD CONSTRAINT "disease_libraries_crf_form_id_crf_forms_id_fk" FOREIGN KEY ("crf_form_id") REFERENCES "public"."crf_forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD CONSTRAINT "disease_libraries_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_fill_log" ADD CONSTRAINT "disease_library_fill_log_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_fill_log" ADD CONSTRAINT "disease_library_fill_log_library_id_disease_libraries_id_fk" FOREIGN KEY ("library_id") REFERENCES "public"."disease_libraries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_patients" ADD CONSTRAINT "disease_library_patients_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_patients" ADD CONSTRAINT "disease_library_patients_library_id_disease_libraries_id_fk" FOREIGN KEY ("library_id") REFERENCES "public"."disease_libraries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_patients" ADD CONSTRAINT "disease_library_patients_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_patients" ADD CONSTRAINT "disease_library_patients_record_id_crf_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."crf_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_templates" ADD CONSTRAINT "disease_library_templates_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_templates" ADD CONSTRAINT "disease_library_templates_crf_form_id_crf_forms_id_fk" FOREIGN KEY ("crf_form_id") REFERENCES "public"."crf_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_library_templates" ADD CONSTRAINT "disease_library_templates_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disease_libraries_app_name" ON "disease_libraries" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "disease_libraries_next_push" ON "disease_libraries" USING btree ("next_push_at");--> statement-breakpoint
CREATE INDEX "disease_library_fill_log_lib" ON "disease_library_fill_log" USING btree ("library_id","id");--> statement-breakpoint
CREATE INDEX "disease_library_fill_log_patient" ON "disease_library_fill_log" USING btree ("library_id","patient_id","item_key");--> statement-breakpoint
CREATE UNIQUE INDEX "disease_library_patients_lib_patient" ON "disease_library_patients" USING btree ("library_id","patient_id");--> statement-breakpoint
CREATE INDEX "disease_library_patients_lib_filing" ON "disease_library_patients" USING btree ("library_id","filing_date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "disease_library_templates_app_name" ON "disease_library_templates" USING btree ("app_id","name");