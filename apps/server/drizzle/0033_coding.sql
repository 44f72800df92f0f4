CREATE TABLE "coding_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"task_id" bigint NOT NULL,
	"term" text NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"candidates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"code" text,
	"display_zh" text DEFAULT '' NOT NULL,
	"decided_by" integer,
	"decided_by_name" text DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "coding_items_status" CHECK ("coding_items"."status" in ('pending', 'coded', 'noCode'))
);
--> statement-breakpoint
ALTER TABLE "coding_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "coding_mappings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"term" text NOT NULL,
	"system_key" text NOT NULL,
	"code" text,
	"display_zh" text DEFAULT '' NOT NULL,
	"system_version" text DEFAULT '' NOT NULL,
	"how" text NOT NULL,
	"score" real,
	"reason" text DEFAULT '' NOT NULL,
	"task_id" bigint,
	"coded_by" integer,
	"coded_by_name" text DEFAULT '' NOT NULL,
	"coded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"review" text DEFAULT 'unreviewed' NOT NULL,
	"review_reason" text DEFAULT '' NOT NULL,
	CONSTRAINT "coding_mappings_kind" CHECK ("coding_mappings"."kind" in ('disease', 'surgery', 'lab', 'drug')),
	CONSTRAINT "coding_mappings_how" CHECK ("coding_mappings"."how" in ('suggestion', 'search', 'bulk', 'noCode')),
	CONSTRAINT "coding_mappings_review" CHECK ("coding_mappings"."review" in ('unreviewed', 'agreed', 'disputed'))
);
--> statement-breakpoint
ALTER TABLE "coding_mappings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "coding_review_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"task_id" bigint,
	"coder_id" integer,
	"sample_percent" integer DEFAULT 100 NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coding_review_batches_kind" CHECK ("coding_review_batches"."kind" in ('disease', 'surgery', 'lab', 'drug'))
);
--> statement-breakpoint
ALTER TABLE "coding_review_batches" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "coding_reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"batch_id" bigint NOT NULL,
	"mapping_id" bigint NOT NULL,
	"coder_id" integer,
	"coder_name" text DEFAULT '' NOT NULL,
	"task_id" bigint,
	"code" text,
	"verdict" text DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"suggested_code" text,
	"reviewed_by" integer,
	"reviewed_by_name" text DEFAULT '' NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "coding_reviews_verdict" CHECK ("coding_reviews"."verdict" in ('pending', 'agree', 'disagree'))
);
--> statement-breakpoint
ALTER TABLE "coding_reviews" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "coding_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"system_key" text NOT NULL,
	"name" text NOT NULL,
	"only_unmapped" boolean DEFAULT true NOT NULL,
	"job_id" bigint,
	"terms" integer DEFAULT 0 NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coding_tasks_kind" CHECK ("coding_tasks"."kind" in ('disease', 'surgery', 'lab', 'drug'))
);
--> statement-breakpoint
ALTER TABLE "coding_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "coding_items" ADD CONSTRAINT "coding_items_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_items" ADD CONSTRAINT "coding_items_task_id_coding_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."coding_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_items" ADD CONSTRAINT "coding_items_decided_by_users_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_mappings" ADD CONSTRAINT "coding_mappings_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_mappings" ADD CONSTRAINT "coding_mappings_task_id_coding_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."coding_tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_mappings" ADD CONSTRAINT "coding_mappings_coded_by_users_user_id_fk" FOREIGN KEY ("coded_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_review_batches" ADD CONSTRAINT "coding_review_batches_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_review_batches" ADD CONSTRAINT "coding_review_batches_task_id_coding_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."coding_tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_review_batches" ADD CONSTRAINT "coding_review_batches_coder_id_users_user_id_fk" FOREIGN KEY ("coder_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_review_batches" ADD CONSTRAINT "coding_review_batches_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_reviews" ADD CONSTRAINT "coding_reviews_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_reviews" ADD CONSTRAINT "coding_reviews_batch_id_coding_review_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."coding_review_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_reviews" ADD CONSTRAINT "coding_reviews_mapping_id_coding_mappings_id_fk" FOREIGN KEY ("mapping_id") REFERENCES "public"."coding_mappings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_reviews" ADD CONSTRAINT "coding_reviews_coder_id_users_user_id_fk" FOREIGN KEY ("coder_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_reviews" ADD CONSTRAINT "coding_reviews_reviewed_by_users_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_tasks" ADD CONSTRAINT "coding_tasks_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_tasks" ADD CONSTRAINT "coding_tasks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coding_tasks" ADD CONSTRAINT "coding_tasks_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coding_items_task_term" ON "coding_items" USING btree ("task_id","term");--> statement-breakpoint
CREATE INDEX "coding_items_app" ON "coding_items" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coding_mappings_app_kind_term" ON "coding_mappings" USING btree ("app_id","kind","term");--> statement-breakpoint
CREATE INDEX "coding_mappings_code" ON "coding_mappings" USING btree ("app_id","system_key","code");--> statement-breakpoint
CREATE INDEX "coding_review_batches_app" ON "coding_review_batches" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "coding_reviews_batch_mapping" ON "coding_reviews" USING btree ("batch_id","mapping_id");--> statement-breakpoint
CREATE INDEX "coding_reviews_mapping" ON "coding_reviews" USING btree ("mapping_id");--> statement-breakpoint
CREATE INDEX "coding_tasks_app" ON "coding_tasks" USING btree ("app_id","kind","id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "coding_items" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "coding_mappings" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "coding_review_batches" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "coding_reviews" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "coding_tasks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "coding_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "coding_items" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "coding_mappings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "coding_review_batches" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "coding_reviews" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- The CDR as coded, at read time: each row keeps its original text and source code, and gets the
-- code of its kind's mapping (same app, same trimmed text). A mapping made today applies to rows
-- collected tomorrow without touching them. security_invoker: the reader's row-level security holds.
CREATE VIEW "cdr_coded_diagnoses" WITH (security_invoker = true) AS
  SELECT d.id, d.app_id, d.patient_id, d.visit_id, d.name AS original_text, d.icd10 AS source_code,
    m.system_key, m.code, m.display_zh, m.id AS mapping_id
  FROM "diagnoses" d
  LEFT JOIN "coding_mappings" m ON m.app_id = d.app_id AND m.kind = 'disease' AND m.term = btrim(d.name) AND m.code IS NOT NULL;--> statement-breakpoint
CREATE VIEW "cdr_coded_operations" WITH (security_invoker = true) AS
  SELECT o.id, o.app_id, o.patient_id, o.visit_id, o.name AS original_text, o.code AS source_code,
    m.system_key, m.code, m.display_zh, m.id AS mapping_id
  FROM "operations" o
  LEFT JOIN "coding_mappings" m ON m.app_id = o.app_id AND m.kind = 'surgery' AND m.term = btrim(o.name) AND m.code IS NOT NULL;--> statement-breakpoint
CREATE VIEW "cdr_coded_lab_results" WITH (security_invoker = true) AS
  SELECT l.id, l.app_id, l.patient_id, l.visit_id, l.item_name AS original_text, l.item_code AS source_code,
    m.system_key, m.code, m.display_zh, m.id AS mapping_id
  FROM "lab_results" l
  LEFT JOIN "coding_mappings" m ON m.app_id = l.app_id AND m.kind = 'lab' AND m.term = btrim(l.item_name) AND m.code IS NOT NULL;--> statement-breakpoint
CREATE VIEW "cdr_coded_drug_orders" WITH (security_invoker = true) AS
  SELECT o.id, o.app_id, o.patient_id, o.visit_id, o.name AS original_text, o.code AS source_code,
    m.system_key, m.code, m.display_zh, m.id AS mapping_id
  FROM "orders" o
  LEFT JOIN "coding_mappings" m ON m.app_id = o.app_id AND m.kind = 'drug' AND m.term = btrim(o.name) AND m.code IS NOT NULL
  WHERE o.category = 'drug';
