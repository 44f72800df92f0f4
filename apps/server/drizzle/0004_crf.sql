CREATE TABLE "crf_form_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"published_by" integer,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crf_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"draft" jsonb NOT NULL,
	"latest_version" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crf_record_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"record_id" bigint NOT NULL,
	"item_key" text NOT NULL,
	"old_value" jsonb,
	"new_value" jsonb,
	"reason" text DEFAULT '' NOT NULL,
	"user_id" integer,
	"user_name" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crf_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"patient_id" bigint,
	"subject_code" text DEFAULT '' NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"methods" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"status_before_lock" text,
	"assigned_to" integer,
	"free_key_id" integer,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"updated_by_name" text DEFAULT '' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"locked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "crf_uploads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_path" text NOT NULL,
	"free_key_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crf_form_versions" ADD CONSTRAINT "crf_form_versions_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_form_versions" ADD CONSTRAINT "crf_form_versions_form_id_crf_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."crf_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_form_versions" ADD CONSTRAINT "crf_form_versions_published_by_users_user_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_forms" ADD CONSTRAINT "crf_forms_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_forms" ADD CONSTRAINT "crf_forms_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_record_changes" ADD CONSTRAINT "crf_record_changes_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_record_changes" ADD CONSTRAINT "crf_record_changes_record_id_crf_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."crf_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_form_id_crf_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."crf_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_version_id_crf_form_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."crf_form_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_assigned_to_users_user_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_uploads" ADD CONSTRAINT "crf_uploads_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crf_uploads" ADD CONSTRAINT "crf_uploads_form_id_crf_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."crf_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "crf_form_versions_form_version" ON "crf_form_versions" USING btree ("form_id","version");--> statement-breakpoint
CREATE INDEX "crf_forms_app" ON "crf_forms" USING btree ("app_id","status");--> statement-breakpoint
CREATE INDEX "crf_record_changes_record" ON "crf_record_changes" USING btree ("record_id","item_key");--> statement-breakpoint
CREATE INDEX "crf_records_form" ON "crf_records" USING btree ("app_id","form_id","id");--> statement-breakpoint
CREATE INDEX "crf_records_patient" ON "crf_records" USING btree ("app_id","patient_id");--> statement-breakpoint
CREATE INDEX "crf_records_subject" ON "crf_records" USING btree ("app_id","subject_code");--> statement-breakpoint
CREATE INDEX "crf_uploads_form" ON "crf_uploads" USING btree ("app_id","form_id");--> statement-breakpoint
-- The field-level history of CRF records is never rewritten (rows go only with their record).
CREATE OR REPLACE FUNCTION crf_record_changes_refuse_update() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'crf_record_changes is append-only: % refused', TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER crf_record_changes_no_update BEFORE UPDATE ON crf_record_changes
  FOR EACH ROW EXECUTE FUNCTION crf_record_changes_refuse_update();
