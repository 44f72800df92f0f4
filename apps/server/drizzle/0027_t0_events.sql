CREATE TABLE "t0_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rule" jsonb NOT NULL,
	"rule_run" text DEFAULT '' NOT NULL,
	"patients" integer DEFAULT 0 NOT NULL,
	"materialized_at" timestamp with time zone,
	"job_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "t0_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "t0_patients" (
	"event_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"t0" timestamp with time zone NOT NULL,
	"source_table" text NOT NULL,
	"source_id" integer NOT NULL,
	CONSTRAINT "t0_patients_event_id_patient_id_pk" PRIMARY KEY("event_id","patient_id")
);
--> statement-breakpoint
ALTER TABLE "t0_patients" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "t0_events" ADD CONSTRAINT "t0_events_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "t0_events" ADD CONSTRAINT "t0_events_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "t0_events" ADD CONSTRAINT "t0_events_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "t0_patients" ADD CONSTRAINT "t0_patients_event_id_t0_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."t0_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "t0_patients" ADD CONSTRAINT "t0_patients_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "t0_patients" ADD CONSTRAINT "t0_patients_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "t0_events_app" ON "t0_events" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "t0_patients_app" ON "t0_patients" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "t0_events" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "t0_patients" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "t0_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "t0_patients" FORCE ROW LEVEL SECURITY;
