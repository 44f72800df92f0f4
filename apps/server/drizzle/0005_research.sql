CREATE TABLE "mc_topic_cases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"topic_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"entered_by" integer,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mc_topic_centers" (
	"topic_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mc_topic_centers_topic_id_app_id_pk" PRIMARY KEY("topic_id","app_id")
);
--> statement-breakpoint
CREATE TABLE "mc_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"type_code" text DEFAULT 'cohort' NOT NULL,
	"protocol" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'staged' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_datasets" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"name" text NOT NULL,
	"spec" jsonb NOT NULL,
	"job_id" bigint,
	"status" text DEFAULT 'building' NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"built_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "research_enrolments" (
	"app_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"enrolled_by" integer,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "research_enrolments_subject_id_patient_id_pk" PRIMARY KEY("subject_id","patient_id")
);
--> statement-breakpoint
CREATE TABLE "research_project_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_status_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"user_id" integer,
	"user_name" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_subject_members" (
	"subject_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "research_subject_members_subject_id_user_id_pk" PRIMARY KEY("subject_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "research_subjects" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"type_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"pi_user_id" integer,
	"start_date" date,
	"end_date" date,
	"target_size" integer DEFAULT 0 NOT NULL,
	"criteria" jsonb NOT NULL,
	"variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"crf_form_id" integer,
	"centers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'staged' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mc_topic_cases" ADD CONSTRAINT "mc_topic_cases_topic_id_mc_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."mc_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_cases" ADD CONSTRAINT "mc_topic_cases_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_cases" ADD CONSTRAINT "mc_topic_cases_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_cases" ADD CONSTRAINT "mc_topic_cases_entered_by_users_user_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_centers" ADD CONSTRAINT "mc_topic_centers_topic_id_mc_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."mc_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topic_centers" ADD CONSTRAINT "mc_topic_centers_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topics" ADD CONSTRAINT "mc_topics_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mc_topics" ADD CONSTRAINT "mc_topics_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_datasets" ADD CONSTRAINT "research_datasets_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_datasets" ADD CONSTRAINT "research_datasets_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_datasets" ADD CONSTRAINT "research_datasets_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_datasets" ADD CONSTRAINT "research_datasets_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_enrolments" ADD CONSTRAINT "research_enrolments_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_enrolments" ADD CONSTRAINT "research_enrolments_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_enrolments" ADD CONSTRAINT "research_enrolments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_enrolments" ADD CONSTRAINT "research_enrolments_enrolled_by_users_user_id_fk" FOREIGN KEY ("enrolled_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_project_types" ADD CONSTRAINT "research_project_types_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_status_log" ADD CONSTRAINT "research_status_log_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_status_log" ADD CONSTRAINT "research_status_log_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_status_log" ADD CONSTRAINT "research_status_log_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subject_members" ADD CONSTRAINT "research_subject_members_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subject_members" ADD CONSTRAINT "research_subject_members_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subjects" ADD CONSTRAINT "research_subjects_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subjects" ADD CONSTRAINT "research_subjects_type_id_research_project_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."research_project_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subjects" ADD CONSTRAINT "research_subjects_pi_user_id_users_user_id_fk" FOREIGN KEY ("pi_user_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subjects" ADD CONSTRAINT "research_subjects_crf_form_id_crf_forms_id_fk" FOREIGN KEY ("crf_form_id") REFERENCES "public"."crf_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_subjects" ADD CONSTRAINT "research_subjects_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mc_topic_cases_patient" ON "mc_topic_cases" USING btree ("topic_id","patient_id");--> statement-breakpoint
CREATE INDEX "mc_topic_cases_app" ON "mc_topic_cases" USING btree ("topic_id","app_id");--> statement-breakpoint
CREATE INDEX "mc_topic_centers_app" ON "mc_topic_centers" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "mc_topics_app" ON "mc_topics" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "research_datasets_subject" ON "research_datasets" USING btree ("app_id","subject_id");--> statement-breakpoint
CREATE INDEX "research_enrolments_app" ON "research_enrolments" USING btree ("app_id","subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "research_project_types_app_code" ON "research_project_types" USING btree ("app_id","code");--> statement-breakpoint
CREATE INDEX "research_status_log_subject" ON "research_status_log" USING btree ("subject_id","at");--> statement-breakpoint
CREATE INDEX "research_subjects_app_status" ON "research_subjects" USING btree ("app_id","status");